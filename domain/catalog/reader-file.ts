// A module of its own: the product page's browser code loads it (the JavaScript budget).

/** Whether a product's files include one for the reader: without it Read Now has nothing to open. */
export function hasReaderFile(files: readonly { type: string }[]): boolean {
  return files.some((file) => file.type === 'READER');
}
