import { test, expect } from '@playwright/test';
import { acceptedKinds, CHAT_FILE_MAX_BYTES, chatFileKind, chatFileName, chatFileRefusal } from '../../../src-shared/chat-files';

test("a chat file's kind by its type; what a group's acceptedMedias lets through, in its own words", () => {
  expect(chatFileKind('application/pdf')).toBe('document');
  expect(chatFileKind('image/jpeg')).toBe('image');
  expect(chatFileKind('audio/ogg; codecs=opus')).toBe('audio');
  // Not sent: scripts in pictures, video, archives, anything untyped.
  for (const t of ['image/svg+xml', 'video/mp4', 'application/zip', 'application/octet-stream', '']) expect(chatFileKind(t), t).toBeNull();

  expect([...acceptedKinds('text,image,audio,document')!].sort()).toEqual(['audio', 'document', 'image']);
  expect([...acceptedKinds('TEXT; Documento')!]).toEqual(['document']);
  expect([...acceptedKinds('application/pdf image/*')!].sort()).toEqual(['document', 'image']);
  expect([...acceptedKinds('text')!]).toEqual([]);
  // Silent group: the console does not refuse on its behalf.
  expect(acceptedKinds(null)).toBeNull();
  expect(acceptedKinds('  ')).toBeNull();
});

test('a chat file is refused for its type, its group, its size or being empty, in that order', () => {
  expect(chatFileRefusal({ type: 'application/pdf', size: 10 }, 'text,document')).toBeNull();
  expect(chatFileRefusal({ type: 'application/zip', size: 10 }, null)).toEqual({ reason: 'type' });
  expect(chatFileRefusal({ type: 'image/png', size: 10 }, 'text,document')).toEqual({
    reason: 'notAccepted',
    kind: 'image',
    accepted: ['document'],
  });
  expect(chatFileRefusal({ type: 'application/pdf', size: CHAT_FILE_MAX_BYTES }, null)).toBeNull();
  expect(chatFileRefusal({ type: 'application/pdf', size: CHAT_FILE_MAX_BYTES + 1 }, null)).toEqual({
    reason: 'tooLarge',
    max: CHAT_FILE_MAX_BYTES,
  });
  expect(chatFileRefusal({ type: 'audio/mpeg', size: 0 }, null)).toEqual({ reason: 'empty' });
  expect(chatFileName('C:\\Users\\ana\\boleto.pdf')).toBe('boleto.pdf');
  expect(chatFileName('../../etc/passwd')).toBe('passwd');
  expect(chatFileName('\u0007')).toBe('file');
});
