/** Where a command writes: its output lines and its error lines (the terminal, or a test's buffers). */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}
