// Zod-free, so the renderer can check names without bundling the schemas.

/**
 * Knowledge-base name `{hostname}_{identifier}_data_pt` (§4.5), checked on both sides: lower
 * case (search indexes require it); the host part ends at the first underscore.
 */
export const KNOWLEDGE_BASE_NAME = /^[a-z0-9][a-z0-9.-]{0,99}_[a-z0-9][a-z0-9_-]{0,99}_data_pt$/;
export const isKnowledgeBaseName = (name: string): boolean => KNOWLEDGE_BASE_NAME.test(name);

/** The file types upload_files takes (§4.5), as extensions without the dot. */
export const KB_FILE_TYPES = ['xls', 'xlsx', 'ods', 'pdf', 'csv', 'txt', 'tsv', 'docx', 'xml', 'json'] as const;
export type KbFileType = (typeof KB_FILE_TYPES)[number];

/** The largest file from this computer the console lends to the service for indexing. */
export const KB_FILE_MAX_BYTES = 10 * 1024 * 1024;
