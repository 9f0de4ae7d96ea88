/**
 * Files an attendant sends in a chat (README: "Sending files"). The interface has no chat-media
 * upload: the console lends the file at its public address and saves a message whose `message`
 * is that URL and whose `contentType` is the file's MIME type (interface §2.9 message fields).
 * One set of rules for the page (checked before a byte travels) and the main process (checked
 * again before anything reaches the service).
 */

/**
 * The largest file sent: 16 MiB, what common messaging providers take for media (and the most
 * the console reads back of any media, src-main/service/core.ts `media`), so a file the service
 * took is one the console can show again.
 */
export const CHAT_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** The bytes of one bridge call while a file goes to the main process: its base64 stays below the web host's 1 MiB body. */
export const CHAT_FILE_CHUNK_BYTES = 512 * 1024;

/** What an attendant may send, in the words groups use in `acceptedMedias`. */
export type ChatFileKind = 'image' | 'audio' | 'document';

/**
 * The kind of a file by its MIME type; null for what the console does not send (video, archives,
 * SVG, which can carry scripts). PDF is the one document kind: boletos, invoices, labels.
 */
export function chatFileKind(mime: string): ChatFileKind | null {
  const t = mime.split(';', 1)[0]!.trim().toLowerCase();
  if (t === 'application/pdf') return 'document';
  if (/^image\/(png|jpeg|gif|webp)$/.test(t)) return 'image';
  if (/^audio\/(mpeg|mp3|ogg|opus|wav|x-wav|wave|mp4|m4a|x-m4a|aac|webm|amr)$/.test(t)) return 'audio';
  return null;
}

/** Words a group may write for each kind (its language or the channel's). */
const WORDS: Record<ChatFileKind, RegExp> = {
  image: /^(image|images|imagem|imagens|photo|photos|foto|fotos|picture|pictures|sticker)$/,
  audio: /^(audio|audios|áudio|áudios|voice|ptt|voz)$/,
  document: /^(document|documents|documento|documentos|doc|docs|file|files|arquivo|arquivos|pdf|attachment)$/,
};

/**
 * The kinds a group's `acceptedMedias` (a free string, interface §2.6) lets through, or null
 * when the group says nothing (absent or blank): then the console does not refuse on its behalf.
 * Words are split on commas, semicolons, bars and spaces; a MIME type ("application/pdf") or a
 * family ("image/*") counts as its kind.
 */
export function acceptedKinds(acceptedMedias: string | null | undefined): Set<ChatFileKind> | null {
  const words = (acceptedMedias ?? '')
    .toLowerCase()
    .split(/[\s,;|]+/)
    .filter(Boolean);
  if (!words.length) return null;
  const out = new Set<ChatFileKind>();
  for (const w of words) {
    if (w === 'image/*') out.add('image');
    if (w === 'audio/*') out.add('audio');
    const fromMime = chatFileKind(w);
    if (fromMime) out.add(fromMime);
    for (const k of Object.keys(WORDS) as ChatFileKind[]) if (WORDS[k].test(w)) out.add(k);
  }
  return out;
}

/** Why a file is not sent, before anything leaves; null when it may go. */
export type ChatFileRefusal =
  | { reason: 'type' }
  | { reason: 'notAccepted'; kind: ChatFileKind; accepted: ChatFileKind[] }
  | { reason: 'tooLarge'; max: number }
  | { reason: 'empty' };

export function chatFileRefusal(file: { type: string; size: number }, acceptedMedias: string | null | undefined): ChatFileRefusal | null {
  const kind = chatFileKind(file.type);
  if (!kind) return { reason: 'type' };
  const accepted = acceptedKinds(acceptedMedias);
  if (accepted && !accepted.has(kind)) return { reason: 'notAccepted', kind, accepted: [...accepted].sort() };
  if (file.size <= 0) return { reason: 'empty' };
  if (file.size > CHAT_FILE_MAX_BYTES) return { reason: 'tooLarge', max: CHAT_FILE_MAX_BYTES };
  return null;
}

/** A file name as it may travel in a URL path and a header: no folders, no control characters, not too long. */
export function chatFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(-120);
}
