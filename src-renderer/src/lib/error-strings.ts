import type { ErrorInfo, ErrorReason } from '../../../src-shared/errors';
import { sizeWords } from '../../../src-shared/size-words';
import { i18n } from './i18n.svelte';

/**
 * Errors in the user's language. The main process words each error in English, naming what was
 * being done ("…to list sessions"): English shows those words as they are, and Portuguese says
 * what happened from the error's reason and its fields (status, where a redirect pointed, the
 * limit an answer passed).
 */
const et = i18n.register({
  en: {
    'err.unreachable': '{message}',
    'err.timeout': '{message}',
    'err.errorPage': '{message}',
    'err.redirect': '{message}',
    'err.redirectNowhere': '{message}',
    'err.tooLarge': '{message}',
    'err.tooDeep': '{message}',
    'err.malformed': '{message}',
    'err.paging': '{message}',
    'err.internal': '{message}',
    'err.page': 'Something went wrong in this window. The details are in its developer console.',
    'err.retrying': 'Could not load — retrying by itself at {time}.',
    'err.kind.Unauthorized': '{message}',
    'err.kind.Forbidden': '{message}',
    'err.kind.NotFound': '{message}',
    'err.kind.RateLimited': '{message}',
    'err.kind.Unavailable': '{message}',
    'err.kind.Timeout': '{message}',
    'err.kind.OutcomeUnknown': '{message}',
    'err.kind.BadResponse': '{message}',
    'err.kind.Cancelled': '{message}',
    'err.kind.Internal': '{message}',
  },
  'pt-BR': {
    'err.unreachable': 'Não foi possível alcançar o serviço. Verifique o endereço e a sua conexão.',
    'err.timeout': 'O serviço não respondeu a tempo. Tente de novo em instantes.',
    'err.errorPage': 'O serviço respondeu com uma página de erro ({status}) em vez de uma resposta. Tente de novo em instantes.',
    'err.redirect':
      'O serviço redirecionou o pedido para {location} ({status}); o console não segue redirecionamentos. Verifique o endereço do serviço.',
    'err.redirectNowhere':
      'O serviço respondeu com um redirecionamento ({status}); o console não segue redirecionamentos. Verifique o endereço do serviço.',
    'err.tooLarge': 'A resposta do serviço passou do limite de {limit}; o console parou de lê-la.',
    'err.tooDeep': 'A resposta do serviço tinha mais de {limit} níveis de aninhamento; o console não a leu.',
    'err.malformed': 'O serviço respondeu com dados que o console não consegue ler.',
    'err.paging': 'As páginas do serviço não terminavam (uma página não trouxe nada novo); a lista parou ali.',
    'err.internal': 'Algo deu errado dentro do console. Os detalhes estão no registro.',
    'err.page': 'Algo deu errado nesta janela. Os detalhes estão no console de desenvolvedor dela.',
    'err.retrying': 'Não foi possível carregar — nova tentativa automática às {time}.',
    'err.kind.Unauthorized': 'O serviço recusou a sua sessão (401). Entre de novo.',
    'err.kind.Forbidden': 'O seu perfil não tem permissão para isto no serviço (403).',
    'err.kind.NotFound': 'O serviço não encontrou o que foi pedido (404).',
    'err.kind.RateLimited': 'O serviço pediu para esperar antes de tentar de novo (429).',
    'err.kind.Unavailable': 'O serviço está indisponível agora. Tente de novo em instantes.',
    'err.kind.Timeout': 'O serviço não respondeu a tempo. Tente de novo em instantes.',
    'err.kind.OutcomeUnknown': 'O pedido foi enviado, mas a resposta não chegou; o console confere o resultado antes de repetir.',
    'err.kind.BadResponse': 'O serviço respondeu com dados que o console não consegue ler.',
    'err.kind.Cancelled': 'A operação foi cancelada.',
    'err.kind.Internal': 'Algo deu errado dentro do console. Os detalhes estão no registro.',
  },
});

const KEYS: Record<ErrorReason, Parameters<typeof et>[0]> = {
  unreachable: 'err.unreachable',
  timeout: 'err.timeout',
  errorPage: 'err.errorPage',
  redirect: 'err.redirect',
  tooLarge: 'err.tooLarge',
  tooDeep: 'err.tooDeep',
  malformed: 'err.malformed',
  paging: 'err.paging',
  internal: 'err.internal',
};

/** An error value from the main process, in the user's language. */
export function errorText(info: ErrorInfo): string {
  // Without a reason, the kind says what happened; the service's own words (Invalid) are its data.
  if (!info.reason) return info.kind === 'Invalid' ? info.message : et(`err.kind.${info.kind}`, { message: info.message });
  let key = KEYS[info.reason];
  if (key === 'err.redirect' && !info.location) key = 'err.redirectNowhere';
  const limit = info.limit === undefined ? '' : info.reason === 'tooLarge' ? sizeWords(info.limit) : String(info.limit);
  return et(key, { message: info.message, status: info.status ?? '', location: info.location ?? '', limit });
}

/** "Could not load — retrying by itself at {time}", in the user's language. */
export const retryingText = (at: number): string => et('err.retrying', { time: i18n.dateTime(at, { timeStyle: 'medium' }) });

/** A fault of this window's own code (not an error value from the main process). */
export const pageErrorText = (): string => et('err.page');
