/**
 * A size limit as a message says it, the same in both languages: "16 MiB", "64 KiB", "512 bytes".
 * Apart from the error model so that the page can use it without the schemas.
 */
export function sizeWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
