import '@testing-library/jest-dom'

// jsdom has no ResizeObserver; Headless UI's menus watch their button with one.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver
