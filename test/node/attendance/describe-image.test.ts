import { test, expect } from '@playwright/test';
import { startStandin, type Standin } from '../../../src-standin/index';
import { MEDIA, MEDIA_PATH } from '../../../src-standin/media';
import { createServiceClient, type ServiceClient } from '../../../src-main/service/index';
import { Composer } from '../../../src-main/features/attendance/composer';
import type { FeatureContext } from '../../../src-main/features/context';
import type { ThreadMessage } from '../../../src-shared/bridge/attendance';
import { startCaptureProxy } from '../../support/capture-proxy';
import { failure } from '../../support/errors';

/**
 * An image described by the service's AI (interface §4.1, an `image_url` content item): what the
 * main process sends (the service's own address of the image, never the token), what the
 * stand-in answers, and the documents rule that holds an address naming a CPF back.
 */

const PHOTO = MEDIA.find((m) => m.kind === 'image')!;
const LOCAL = { provider: 'local', model: 'local-extractive' };

let sb: Standin | undefined;
let proxy: Awaited<ReturnType<typeof startCaptureProxy>> | undefined;
let client: ServiceClient | undefined;
test.afterEach(async () => {
  await client?.close();
  await proxy?.close();
  await sb?.close();
  client = proxy = sb = undefined;
});

function composerOn(c: ServiceClient): Composer {
  const ctx = {
    client: () => c,
    vault: { get: () => null, state: 'encrypted' },
    log: { warn: () => undefined },
  } as unknown as FeatureContext;
  return new Composer(ctx);
}

const imageMessage = (url: string, caption: string | null): ThreadMessage =>
  ({
    id: 501,
    sessionId: 7,
    text: '',
    caption,
    contentType: 'image',
    media: { kind: 'image', url, mime: null, name: url.split('/').at(-1)! },
    fromCustomer: true,
  }) as unknown as ThreadMessage;

for (const reading of ['default', 'variant'] as const) {
  test(`an image is described from the service's own address of it, the caption masked, the token kept (${reading} reading)`, async () => {
    sb = await startStandin({ port: 0, reading });
    proxy = await startCaptureProxy(sb.baseUrl);
    client = createServiceClient({ baseUrl: proxy.url, getToken: async () => sb!.tokens.agent });
    const composer = composerOn(client);

    const text = await composer.describe(
      imageMessage(`${MEDIA_PATH}${PHOTO.name}`, 'Meu CPF é 529.982.247-25, a caixa chegou assim'),
      LOCAL,
    );
    expect(text).toBe(`Imagem: ${PHOTO.description!.pt}`);

    const sent = proxy.bodiesTo('/transformersapi/1.0/nlp');
    expect(sent).toHaveLength(1);
    const body = JSON.parse(sent[0]!) as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const items = body.messages.flatMap((m) => m.content);
    expect(items).toContainEqual({ type: 'image_url', image_url: { url: `${proxy.url}${MEDIA_PATH}${PHOTO.name}` } });
    expect(sent[0]).toContain('***.***.247-25');
    expect(sent[0]).not.toContain('529.982.247-25');
    expect(sent[0]).not.toContain(sb.tokens.agent);
  });
}

test('an image address naming a CPF is not sent to the language model; media on another host is not offered to it', async () => {
  sb = await startStandin({ port: 0 });
  proxy = await startCaptureProxy(sb.baseUrl);
  client = createServiceClient({ baseUrl: proxy.url, getToken: async () => sb!.tokens.agent });
  const composer = composerOn(client);

  const held = await failure(composer.describe(imageMessage(`${MEDIA_PATH}rg-529.982.247-25.png`, null), LOCAL));
  expect(held.info).toMatchObject({ kind: 'Invalid', field: 'image_url' });
  expect(held.info.message).toContain('CPF or CNPJ');
  // Percent-encoded, the same.
  const encoded = await failure(composer.describe(imageMessage(`${MEDIA_PATH}rg-529%2E982%2E247-25.png`, null), LOCAL));
  expect(encoded.info).toMatchObject({ kind: 'Invalid', field: 'image_url' });
  const elsewhere = await failure(composer.describe(imageMessage('https://cdn.example/foto.png', null), LOCAL));
  expect(elsewhere.info).toMatchObject({ kind: 'Invalid' });
  expect(elsewhere.info.message).toContain('another host');
  expect(proxy.bodiesTo('/transformersapi/1.0/nlp')).toEqual([]);

  // Not an image: nothing to describe.
  const text = { ...imageMessage(`${MEDIA_PATH}${PHOTO.name}`, null), media: null } as unknown as ThreadMessage;
  expect((await failure(composer.describe(text, LOCAL))).info).toMatchObject({ kind: 'Invalid' });
  expect(proxy.bodiesTo('/transformersapi/1.0/nlp')).toEqual([]);
});
