import { test, expect } from '@playwright/test';
import { openDemo, ownOpenSessions, railButton, serviceApi, type Rec } from '../../support/web';
import { freshProfile, launchHost } from '../../support/host';
import { AI_OPS } from '../../../src-shared/paths';

test("voice offers the languages the speech service reports, and starts in the interface language's nearest one", async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    const answer = await serviceApi(sb.baseUrl, sb.tokens.agent).post(AI_OPS.modelsByProviders, {
      provider: '',
      typeModality: 'speech-to-text',
    });
    const reported = (answer.Results as Rec[])
      .filter((m) => m.active !== false)
      .flatMap((m) => ((m.metadata as Rec | null)?.languages as string[] | undefined) ?? []);
    expect(reported.length, "the stand-in names its speech models' languages").toBeGreaterThan(0);
    const tags = reported.map((l) => l.replace(/-([a-z]{2})$/i, (_, r: string) => `-${r.toUpperCase()}`));

    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await railButton(page, 'Voz').click();
    await page.getByRole('list', { name: 'Minhas sessões' }).getByRole('button').first().click();
    const select = page.getByRole('combobox', { name: 'Idioma da fala' });
    // Only what the service understands, named in Portuguese.
    await expect(select.locator('option')).toHaveCount(tags.length);
    const values = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(values.sort()).toEqual([...tags].sort());
    const expected = tags.find((t) => t === 'pt-BR') ?? tags.find((t) => t.startsWith('pt')) ?? tags[0]!;
    await expect(select).toHaveValue(expected);
    const name = new Intl.DisplayNames(['pt-BR'], { type: 'language' }).of(expected)!;
    await expect(select.locator('option:checked')).toHaveText(name);
  } finally {
    await host.close();
  }
});

test('a speech failure is told in the interface language, by what happened', async ({ page }) => {
  const host = await launchHost(freshProfile());
  try {
    const sb = await openDemo(page, host);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    const [mine] = await ownOpenSessions(sb);
    await page.getByRole('searchbox', { name: 'Filtrar sessões' }).fill(String(mine!.protocol));
    await page.getByRole('tab', { name: /Minhas/ }).click();
    await page.getByRole('list', { name: 'Minhas' }).getByRole('button').first().click();
    const message = page
      .getByRole('log', { name: /Mensagens com/ })
      .getByRole('article')
      .last();
    await expect(message).toBeVisible();

    await sb.faults.set([{ match: { method: 'POST', path: AI_OPS.tts }, kind: 'status', status: 503 }]);
    await message.hover();
    await message.getByRole('button', { name: 'Ler em voz alta' }).click();
    await expect(message.getByRole('alert')).toHaveText(
      'A leitura em voz alta falhou: o serviço de voz não respondeu. Tente de novo em instantes.',
    );
  } finally {
    await host.close();
  }
});
