/**
 * The words of a lecture's files (the lecture page, the preview dialog, the course editor). Not in
 * the message catalogue (contract/src/messages.ts), which ships in every page's first chunk: these
 * load with the pages that show files.
 */
export const resourcesTexts = {
  heading: 'Lecture files',
  attach: 'Attach file',
  attachHint: (limit: string) => `PDF, ZIP, pictures or text, up to ${limit} each`,
  noFiles: 'No files yet. Attach handouts, slides or exercises for this lecture.',
  full: (max: number) => `${max} of ${max} files: remove one to attach another`,
  download: (name: string) => `Download ${name}`,
  remove: 'Remove',
  removeFile: (name: string) => `Remove ${name}`,
  confirmRemove: (name: string) => `Remove the file "${name}" from this lecture?`,
  uploading: (name: string, percent: number) => `Uploading ${name}… ${percent}%`,
  uploadProgress: 'Upload progress',
  cancelUpload: 'Cancel upload',
  uploadCancelled: 'Upload cancelled',
  tooLarge: (limit: string, size: string) => `Files may be up to ${limit}, and this one is ${size}`,
  loadFailed: 'The files of this lecture could not be loaded.',
  retry: 'Try again',
  attachFailed: 'The file could not be attached',
  removeFailed: 'The file could not be removed',
  kinds: {
    'application/pdf': 'PDF',
    'application/zip': 'ZIP',
    'image/png': 'PNG image',
    'image/jpeg': 'JPEG image',
    'image/gif': 'GIF image',
    'image/webp': 'WebP image',
    'text/plain': 'Text',
  } as Record<string, string>,
} as const;
