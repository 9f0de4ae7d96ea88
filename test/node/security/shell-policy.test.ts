import { test, expect } from '@playwright/test';
import { decidePermission, isAppNavigation, isSafeExternalUrl } from '../../../src-main/shell-policy';
import { isTrustedSender } from '../../../src-main/bridge/sender';
import { APP_ORIGIN } from '../../../src-shared/ipc';

test('only well-formed http, https and mailto links open externally', () => {
  for (const ok of ['https://example.com/help', 'http://example.com', 'mailto:ana@example.com'])
    expect(isSafeExternalUrl(ok), ok).toBe(true);
  for (const bad of [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://host/share',
    'app://console/index.html',
    'data:text/html,hi',
    'https://user:pass@example.com',
    'mailto:',
    'not a url',
    `https://example.com/${'a'.repeat(3000)}`,
  ])
    expect(isSafeExternalUrl(bad), bad).toBe(false);
});

test('the window may navigate only inside the app origin', () => {
  expect(isAppNavigation('app://console/index.html', APP_ORIGIN)).toBe(true);
  expect(isAppNavigation('https://example.com', APP_ORIGIN)).toBe(false);
  expect(isAppNavigation('app://other/index.html', APP_ORIGIN)).toBe(false);
});

test('permissions are denied unless granted, and never to another origin', () => {
  expect(decidePermission('media', 'app://console/index.html', APP_ORIGIN, new Set())).toBe(false);
  expect(decidePermission('media', 'app://console/index.html', APP_ORIGIN, new Set(['media']))).toBe(true);
  expect(decidePermission('media', 'https://example.com', APP_ORIGIN, new Set(['media']))).toBe(false);
  expect(decidePermission('geolocation', 'app://console/', APP_ORIGIN, new Set(['media']))).toBe(false);
});

test('the bridge trusts only the main frame of its own origin', () => {
  expect(isTrustedSender({ frameUrl: 'app://console/index.html', isMainFrame: true }, APP_ORIGIN)).toBe(true);
  expect(isTrustedSender({ frameUrl: 'app://console/index.html', isMainFrame: false }, APP_ORIGIN)).toBe(false);
  expect(isTrustedSender({ frameUrl: 'https://evil.example/', isMainFrame: true }, APP_ORIGIN)).toBe(false);
  expect(isTrustedSender({ frameUrl: null, isMainFrame: true }, APP_ORIGIN)).toBe(false);
  expect(isTrustedSender({ frameUrl: '::bad', isMainFrame: true }, APP_ORIGIN)).toBe(false);
});
