/** Portuguese text of the demo workspace: names, conversation scripts, canned replies. */

export const FIRST_NAMES = [
  'Mariana',
  'João',
  'Beatriz',
  'Lucas',
  'Fernanda',
  'Rafael',
  'Camila',
  'Thiago',
  'Larissa',
  'Pedro',
  'Aline',
  'Gustavo',
  'Patrícia',
  'Rodrigo',
  'Vanessa',
  'Marcelo',
  'Renata',
  'André',
  'Tatiane',
  'Leonardo',
  'Juliana',
  'Carlos',
  'Priscila',
  'Fábio',
  'Letícia',
  'Vinícius',
  'Débora',
  'Márcio',
  'Simone',
  'Otávio',
] as const;

export const LAST_NAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Pereira',
  'Costa',
  'Rodrigues',
  'Almeida',
  'Nascimento',
  'Lima',
  'Araújo',
  'Fernandes',
  'Carvalho',
  'Gomes',
  'Martins',
  'Rocha',
  'Ribeiro',
  'Barbosa',
  'Cardoso',
  'Teixeira',
] as const;

export const EMAIL_DOMAINS = ['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.br', 'uol.com.br', 'bol.com.br'] as const;

export const CITIES = [
  'São Paulo',
  'Rio de Janeiro',
  'Belo Horizonte',
  'Curitiba',
  'Porto Alegre',
  'Salvador',
  'Recife',
  'Fortaleza',
  'Campinas',
  'Goiânia',
] as const;

/**
 * Conversation scripts: lines alternate customer / attendant, starting with the customer.
 * Placeholders: {nome} customer first name, {agente} attendant first name, {cpf}, {cnpj},
 * {email}, {valor}, {pedido}, {protocolo}.
 */
export interface Script {
  topic: string;
  group: 'Atendimento Geral' | 'Financeiro' | 'Suporte Técnico';
  lines: string[];
  suggestion: string;
}

export const SCRIPTS: Script[] = [
  {
    topic: 'segunda via de boleto',
    group: 'Financeiro',
    lines: [
      'Boa tarde! Preciso da segunda via do boleto de março, meu CPF é {cpf}.',
      'Boa tarde, {nome}! Sou {agente}, do financeiro. Vou localizar o boleto para você.',
      'Obrigado. O valor que apareceu no aplicativo foi {valor}, está certo?',
      'Sim, o valor é {valor} com vencimento no dia 15. Enviei a segunda via para {email}.',
      'Recebi aqui, muito obrigado!',
      'Por nada! Seu protocolo é {protocolo}. Posso ajudar em algo mais?',
    ],
    suggestion: 'Enviei a segunda via do boleto para o seu e-mail cadastrado.',
  },
  {
    topic: 'cobrança em duplicidade',
    group: 'Financeiro',
    lines: [
      'Olá, fui cobrado duas vezes no cartão, cada cobrança de {valor}. Isso é um absurdo!',
      'Olá, {nome}, sinto muito pelo transtorno. Pode me informar o número do pedido?',
      'O pedido é {pedido}. A compra foi feita pelo CNPJ {cnpj} da minha empresa.',
      'Localizei o pedido {pedido}. Abri a contestação e o estorno de {valor} sai em até 2 faturas.',
      'Tá bom, fico no aguardo então.',
    ],
    suggestion: 'Abri a contestação da cobrança; o estorno aparece em até duas faturas.',
  },
  {
    topic: 'atraso na entrega',
    group: 'Atendimento Geral',
    lines: [
      'Oi, meu pedido {pedido} deveria ter chegado ontem e até agora nada.',
      'Oi, {nome}! Aqui é {agente}. Vou verificar com a transportadora, um momento por favor.',
      'Tudo bem, aguardo.',
      'O pedido saiu para entrega hoje cedo e deve chegar até as 18h. O frete de {valor} será devolvido pelo atraso.',
      'Ótimo, obrigada pela atenção!',
    ],
    suggestion: 'Seu pedido saiu para entrega hoje e deve chegar até as 18h.',
  },
  {
    topic: 'troca de produto',
    group: 'Atendimento Geral',
    lines: [
      'Bom dia, o fone que comprei veio com defeito. Quero trocar.',
      'Bom dia, {nome}! Lamento pelo defeito. A troca é gratuita em até 30 dias. Qual o número do pedido?',
      'É o {pedido}, comprei por {valor}.',
      'Pronto, gerei a etiqueta de postagem e enviei para {email}. É só levar a uma agência dos Correios.',
    ],
    suggestion: 'Gerei a etiqueta de troca e enviei para o seu e-mail.',
  },
  {
    topic: 'internet lenta',
    group: 'Suporte Técnico',
    lines: [
      'Minha internet está muito lenta desde ontem, não consigo trabalhar.',
      'Olá, {nome}, sou {agente} do suporte técnico. Você já tentou reiniciar o roteador?',
      'Já reiniciei duas vezes e continua igual.',
      'Identifiquei uma instabilidade na sua região. A equipe técnica já está atuando, previsão de normalização em 4 horas.',
      'Vou ter desconto na fatura por isso?',
      'Sim, o abatimento de {valor} será aplicado automaticamente na próxima fatura.',
    ],
    suggestion: 'Há uma instabilidade na sua região; a previsão de normalização é de 4 horas.',
  },
  {
    topic: 'acesso ao aplicativo',
    group: 'Suporte Técnico',
    lines: [
      'Não consigo entrar no aplicativo, diz que minha senha está errada. Meu e-mail é {email}.',
      'Oi, {nome}! Vou te ajudar. Enviei um link de redefinição de senha para {email}.',
      'Chegou, consegui trocar a senha. Valeu!',
      'Que bom! Qualquer coisa é só chamar.',
    ],
    suggestion: 'Enviei um link de redefinição de senha para o seu e-mail.',
  },
];

/** Lines the simulated customer sends when it answers an attendant or nudges the queue. */
export const CUSTOMER_REPLIES = [
  'Entendi, obrigado!',
  'Certo, vou verificar aqui e te retorno.',
  'Pode me confirmar o valor de novo?',
  'Ainda não resolveu, continua com problema.',
  'Perfeito, muito obrigada pela ajuda!',
  'Quanto tempo mais vai demorar?',
] as const;

export const CUSTOMER_NUDGES = ['Alguém pode me atender?', 'Olá? Ainda estou aguardando.', 'Oi, tem alguém aí?'] as const;

export const CANNED_REPLIES: Array<{ code: string; description: string; text: string; group: string | null }> = [
  {
    code: '/saudacao',
    description: 'Saudação inicial',
    text: 'Olá! Meu nome é {agente} e vou cuidar do seu atendimento. Como posso ajudar?',
    group: null,
  },
  { code: '/aguarde', description: 'Pedir um momento', text: 'Um momento, por favor, estou verificando as informações.', group: null },
  {
    code: '/despedida',
    description: 'Encerramento',
    text: 'Obrigado pelo contato! Se precisar de algo mais, é só chamar. Tenha um ótimo dia!',
    group: null,
  },
  { code: '/protocolo', description: 'Informar protocolo', text: 'O número do seu protocolo é {protocolo}.', group: null },
  {
    code: '/boleto',
    description: 'Segunda via de boleto',
    text: 'A segunda via do boleto foi enviada para o e-mail cadastrado e também está disponível no aplicativo.',
    group: 'Financeiro',
  },
  {
    code: '/estorno',
    description: 'Prazo de estorno',
    text: 'O estorno é processado em até 7 dias úteis e aparece em até duas faturas do cartão.',
    group: 'Financeiro',
  },
  {
    code: '/prazo',
    description: 'Prazo de entrega',
    text: 'O prazo de entrega é de até 5 dias úteis após a confirmação do pagamento.',
    group: 'Atendimento Geral',
  },
  {
    code: '/troca',
    description: 'Política de troca',
    text: 'A troca é gratuita em até 30 dias após o recebimento. Vou gerar a etiqueta de postagem.',
    group: 'Atendimento Geral',
  },
  {
    code: '/reiniciar',
    description: 'Reiniciar roteador',
    text: 'Por favor, desligue o roteador da tomada, aguarde 30 segundos e ligue novamente.',
    group: 'Suporte Técnico',
  },
  {
    code: '/senha',
    description: 'Redefinir senha',
    text: 'Enviei um link de redefinição de senha para o seu e-mail. Ele vale por 30 minutos.',
    group: 'Suporte Técnico',
  },
];

export const GENERAL_SUGGESTIONS = [
  'Olá! Como posso ajudar você hoje?',
  'Um momento, por favor, estou verificando.',
  'Poderia me informar o seu CPF para localizar o cadastro?',
  'Poderia me informar o número do pedido?',
  'Obrigado pela paciência!',
  'Seu protocolo de atendimento foi enviado por e-mail.',
  'Posso ajudar em algo mais?',
  'Obrigado pelo contato e tenha um ótimo dia!',
] as const;

export const TICKET_TITLES = [
  'Cobrança em duplicidade no cartão',
  'Pedido não entregue no prazo',
  'Produto com defeito para troca',
  'Instabilidade de internet na região',
  'Erro ao acessar o aplicativo',
  'Reembolso de frete pendente',
  'Nota fiscal com CNPJ incorreto',
  'Alteração de endereço de entrega',
  'Boleto não reconhecido pelo banco',
  'Solicitação de cancelamento de plano',
] as const;

export const NPS_COMMENTS = [
  'Atendimento rápido e eficiente.',
  'A atendente foi muito educada.',
  'Demorou para ser atendido.',
  'Resolveram meu problema na hora.',
  'Tive que explicar o problema várias vezes.',
  null,
  null,
] as const;

/** Internal notes (session comments) attendants leave for each other. */
export const INTERNAL_NOTES = [
  'Cliente já entrou em contato duas vezes sobre o mesmo assunto.',
  'Aguardando retorno do financeiro sobre o estorno.',
  'Prometi retorno até amanhã às 10h.',
  'Cliente prefere contato por e-mail.',
  'Verificar se o pedido foi reenviado pela transportadora.',
] as const;
