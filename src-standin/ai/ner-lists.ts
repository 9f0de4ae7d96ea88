/**
 * Word lists behind the rule-based recogniser. Short on purpose: enough for the attendance
 * conversations the stand-in simulates (Brazilian Portuguese first, English second).
 */

const list = (s: string): string[] =>
  s
    .split('|')
    .map((x) => x.trim())
    .filter(Boolean);

/** Common given names. Words that are also ordinary words (Rosa, Clara, Vitória...) are left out. */
export const FIRST_NAMES = new Set(
  list(`Ana|Maria|João|José|Antônio|Antonio|Francisco|Carlos|Paulo|Pedro|Lucas|Luiz|Luís|Luis|Marcos|
  Gabriel|Rafael|Daniel|Marcelo|Bruno|Eduardo|Felipe|Rodrigo|Gustavo|Fernando|Fernanda|Juliana|
  Mariana|Patrícia|Patricia|Aline|Camila|Amanda|Bruna|Jéssica|Jessica|Letícia|Leticia|Júlia|Julia|
  Beatriz|Larissa|Gabriela|Vanessa|Adriana|Sandra|Cláudia|Claudia|Simone|Renata|Tatiana|Débora|
  Raquel|Carla|Priscila|Luana|Thiago|Tiago|Mateus|Matheus|Vinícius|Vinicius|Leonardo|Guilherme|
  Diego|Alexandre|Ricardo|Roberto|André|Andre|Sérgio|Sergio|Jorge|Márcio|Marcio|Fábio|Fabio|Renato|
  Raimundo|Sebastião|Joaquim|Manoel|Manuel|Benedito|Geraldo|Miguel|Arthur|Artur|Heitor|Bernardo|
  Davi|Enzo|Lorenzo|Théo|Theo|Samuel|Henrique|Murilo|Isabela|Isabella|Sofia|Sophia|Helena|Alice|
  Laura|Valentina|Heloísa|Heloisa|Lívia|Livia|Giovanna|Manuela|Cecília|Cecilia|Lorena|Yasmin|
  Francisca|Antônia|Antonia|Márcia|Marcia|Luciana|Cristina|Rita|Teresa|Tereza|Joana|Carolina|
  Natália|Natalia|Paula|Roberta|Silvia|Sílvia|Sônia|Sonia|Regina|Lúcia|Lucia|Rosângela|Elaine|
  Edson|Wagner|Wellington|Anderson|Alessandro|Leandro|Fabiano|Otávio|Otavio|Caio|Igor|Hugo|Raul|
  Wesley|Kaique|Cauã|Emanuel|Nicolas|Benício|Joana|Priscilla|Michele|Michelle|Denise|Viviane|
  John|James|Robert|Michael|William|David|Richard|Joseph|Thomas|Charles|Christopher|Matthew|
  Anthony|Mark|Steven|Paul|Andrew|Joshua|Kevin|Brian|George|Edward|Peter|Mary|Patricia|Jennifer|
  Linda|Elizabeth|Barbara|Susan|Jessica|Sarah|Karen|Nancy|Lisa|Margaret|Sandra|Ashley|Emily|
  Michelle|Emma|Olivia|Sophie|Anna|Kate|Laura|Rachel|Alice`),
);

/** Organisations a customer may name. */
export const ORGS = list(`Petrobras|Itaú|Itaú Unibanco|Bradesco|Nubank|Banco do Brasil|Caixa Econômica Federal|
  Caixa Econômica|Santander|Banco Inter|Banco Pan|PicPay|Mercado Pago|Mercado Livre|Magazine Luiza|
  Magalu|Americanas|Casas Bahia|Via Varejo|Ponto Frio|Submarino|Shopee|Amazon|Correios|Sedex|Jadlog|
  Loggi|Vale|Ambev|Embraer|Natura|Boticário|O Boticário|Renner|Riachuelo|iFood|Rappi|Uber|99Taxi|
  Gol|Azul|LATAM|Latam|Embratel|Net|Sky|TIM|Anatel|Procon|Serasa|SPC|Receita Federal|INSS|Detran|
  Sabesp|Cemig|Copel|Enel|Light|Globo|Rede Globo|Folha de S.Paulo|Google|Microsoft|Apple|Meta|
  Facebook|Instagram|WhatsApp|Netflix|Spotify|IBM|Oracle|Samsung|Motorola|Xiaomi|Dell|Lenovo|
  Visa|Mastercard|Elo|PayPal|Stripe|Walmart|Carrefour|Pão de Açúcar|Assaí|Atacadão|Unimed|Amil|
  Bradesco Saúde|SulAmérica|Porto Seguro|Itaú Seguros|Fiocruz|USP|Unicamp|UFRJ|UFMG|Senai|Sesc|
  Sebrae|OpenAI|Anthropic`);

/** Organisation names that are also everyday words: matched only in mid-sentence. */
export const AMBIGUOUS_ORGS = list('Vivo|Claro|Oi|Inter|Pan|Light|Azul|Vale|Gol|Elo|Net|Meta|Sky');

export const ORG_SUFFIXES = list('Ltda.|Ltda|S.A.|S/A|SA|EIRELI|ME|EPP|Inc.|Inc|Corp.|Corp|Corporation|LLC|Ltd.|Ltd|Co.|GmbH|PLC');

export const ORG_PREFIXES = list(`Banco|Universidade|Faculdade|Instituto|Hospital|Clínica|Grupo|Companhia|Cia.|
  Associação|Fundação|Ministério|Secretaria|Prefeitura|Supermercado|Supermercados|Farmácia|
  Farmácias|Lojas|Editora|Construtora|Transportadora|Escola|Colégio|Bank|University|Institute|
  Company|Hospital`);

/** Places: Brazilian states and larger cities, regions, countries and some foreign cities. */
export const PLACES = list(`Acre|Alagoas|Amapá|Amazonas|Bahia|Ceará|Distrito Federal|Espírito Santo|Goiás|
  Maranhão|Mato Grosso|Mato Grosso do Sul|Minas Gerais|Pará|Paraíba|Paraná|Pernambuco|Piauí|
  Rio de Janeiro|Rio Grande do Norte|Rio Grande do Sul|Rondônia|Roraima|Santa Catarina|São Paulo|
  Sergipe|Tocantins|Brasília|Salvador|Fortaleza|Belo Horizonte|Manaus|Curitiba|Recife|Goiânia|
  Belém|Porto Alegre|Guarulhos|Campinas|São Luís|São Gonçalo|Maceió|Duque de Caxias|
  Campo Grande|Teresina|São Bernardo do Campo|Nova Iguaçu|João Pessoa|Santo André|Osasco|
  São José dos Campos|Ribeirão Preto|Jaboatão dos Guararapes|Uberlândia|Sorocaba|Contagem|Aracaju|
  Feira de Santana|Cuiabá|Joinville|Juiz de Fora|Londrina|Aparecida de Goiânia|Niterói|
  Florianópolis|Porto Velho|Macapá|Boa Vista|Rio Branco|Vitória da Conquista|
  Caxias do Sul|Maringá|Blumenau|Petrópolis|Foz do Iguaçu|Ilhéus|Búzios|Paraty|Copacabana|
  Ipanema|Leblon|Pinheiros|Moema|Vila Mariana|Barra da Tijuca|Tijuca|Savassi|Pampulha|Nordeste|
  Sudeste|Centro-Oeste|Amazônia|Pantanal|Brasil|Brazil|Argentina|Chile|Uruguai|Uruguay|Paraguai|
  Paraguay|Bolívia|Bolivia|Peru|Colômbia|Colombia|Venezuela|México|Mexico|Estados Unidos|EUA|
  United States|USA|Canadá|Canada|Portugal|Espanha|Spain|França|France|Itália|Italy|Alemanha|
  Germany|Inglaterra|England|Reino Unido|United Kingdom|Japão|Japan|China|Índia|India|Angola|
  Moçambique|Mozambique|Europa|Europe|América do Sul|South America|Lisboa|Lisbon|Madri|
  Madrid|Paris|Londres|London|Nova York|Nova Iorque|New York|Miami|Orlando|Buenos Aires|
  Montevidéu|Montevideo|Tóquio|Tokyo|Berlim|Berlin|Roma|Rome|Boston|Chicago|Los Angeles|
  San Francisco|Toronto|Sydney`);

/** Cities whose names are also common words or surnames: places only when a state code follows ("Natal/RN"). */
export const AMBIGUOUS_PLACES = list('Natal|Santos|Palmas|Vitória|Serra|Porto|Santiago|Franca|Americana|Sumaré|Barueri');

/** Two-letter codes of the Brazilian states, recognised after a city ("Campinas/SP"). */
export const UF_CODES = list('AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO');

export const STREET_PREFIXES = list(`Rua|R.|Avenida|Av.|Alameda|Al.|Travessa|Tv.|Praça|Pça.|Rodovia|Estrada|
  Largo|Viela|Street|St.|Avenue|Ave.|Road|Rd.|Boulevard|Blvd.`);

export const PERSON_TITLES = list('Sr.|Sr|Sra.|Sra|Srta.|Dr.|Dr|Dra.|Dra|Dona|Seu|Prof.|Profa.|Mr.|Mr|Mrs.|Mrs|Ms.|Ms|Miss');

/** Phrases after which a capitalised name is a person ("meu nome é Carla Dias"). */
export const PERSON_CUES = list(`meu nome é|meu nome e|me chamo|aqui é o|aqui é a|aqui quem fala é|quem fala é|
  falo com o|falo com a|falei com o|falei com a|atendido pelo|atendida pelo|atendido pela|atendida pela|
  my name is|this is|I am|I'm|speaking with|spoke with|spoke to`);

export const MONTHS_PT = list('janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro');
export const MONTHS_EN = list(
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan.|Feb.|Mar.|Apr.|Jun.|Jul.|Aug.|Sep.|Sept.|Oct.|Nov.|Dec.',
);

export const NUMBER_WORDS_PT = list(`um|uma|dois|duas|três|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze|treze|
  catorze|quatorze|quinze|dezesseis|dezessete|dezoito|dezenove|vinte|trinta|quarenta|cinquenta|
  sessenta|setenta|oitenta|noventa|cem|cento|duzentos|duzentas|trezentos|trezentas|quatrocentos|
  quinhentos|seiscentos|setecentos|oitocentos|novecentos|mil`);
export const NUMBER_WORDS_EN = list(`one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|
  fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|
  ninety|hundred|thousand|a hundred|a thousand`);

export const QUANTITY_UNITS = list(`kg|g|mg|km|m|cm|mm|l|ml|m²|m2|m³|m3|GB|MB|TB|KB|Mbps|Gbps|W|kW|kWh|V|mAh|°C|ºC|
  quilos|quilo|quilogramas|gramas|grama|toneladas|tonelada|metros|metro|quilômetros|quilometros|
  centímetros|litros|litro|mililitros|unidades|unidade|caixas|caixa|pacotes|pacote|itens|item|
  peças|peça|pares|par|volumes|volume|kilos|pounds|lbs|lb|miles|meters|feet|inches|liters|litres|
  gallons|units|unit|boxes|box|items|pieces|packages|bags`);

export const DURATION_DATE_UNITS = list(
  'dias úteis|dias uteis|dias|dia|semanas|semana|meses|mês|mes|anos|ano|business days|days|day|weeks|week|months|month|years|year',
);
export const DURATION_TIME_UNITS = list('horas|hora|minutos|minuto|segundos|segundo|hours|hour|minutes|minute|seconds|second');

export const RELATIVE_DATES = list(`depois de amanhã|anteontem|hoje|amanhã|amanha|ontem|segunda-feira|terça-feira|
  terca-feira|quarta-feira|quinta-feira|sexta-feira|sábado|sabado|domingo|semana que vem|
  próxima semana|proxima semana|semana passada|mês que vem|próximo mês|proximo mes|mês passado|
  fim de semana|final de semana|day after tomorrow|today|tomorrow|yesterday|Monday|Tuesday|
  Wednesday|Thursday|Friday|Saturday|Sunday|next week|last week|next month|last month|this weekend`);

export const CURRENCY_WORDS = list('reais|real|dólares|dolares|dólar|dolar|euros|euro|centavos|libras|dollars|dollar|cents|bucks');
