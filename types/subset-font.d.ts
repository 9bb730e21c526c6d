/** Types for `subset-font` 2.x (the package ships none): the options scripts/fonts/subsets.ts uses. */
declare module 'subset-font' {
  type Axis = number | { min: number; max: number; default?: number }
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: {
      targetFormat?: 'sfnt' | 'woff' | 'woff2' | 'truetype'
      preserveNameIds?: number[]
      variationAxes?: Record<string, Axis>
      noLayoutClosure?: boolean
    },
  ): Promise<Buffer>
}
