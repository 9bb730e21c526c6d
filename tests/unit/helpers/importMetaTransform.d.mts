/** Types of importMetaTransform.mjs, for the test of its rule. */
export function isEsModule(filename: string): boolean
declare const importMetaTransform: { createTransformer(options: unknown): unknown }
export default importMetaTransform
