/**
 * What a knowledge-base answer says to a customer. A base built from prose keeps a question
 * and its answer in one chunk ("P: question R: answer", Pergunta/Resposta, Q/A,
 * Question/Answer); a base built from records (a CSV, a sheet, JSON) comes back as its columns,
 * "pergunta: …; resposta: …" or "title: …; body: …" (interface §4.5 leaves the rendering open;
 * the stand-in writes "column: value; …", one record a line). Either way the customer reads
 * the answer alone, as prose, with no column names. A chunk that is neither stays as it is:
 * "Escolha a opção A: cartão" is an answer, not a record.
 */
export function answerPart(chunk: string): string {
  const fromRecords = recordAnswers(chunk);
  if (fromRecords !== null) return fromRecords;
  const m = /^\s*(?:P|Pergunta|Q|Question)\s*:[\s\S]*?(?:^|\s)(?:R|Resposta|A|Answer)\s*:\s*([\s\S]+)$/iu.exec(chunk);
  return (m?.[1] ?? chunk).trim();
}

/** Columns that hold the answer, most telling first (a base has one of them, rarely two). */
const ANSWER_COLUMNS = [
  'resposta',
  'answer',
  'respuesta',
  'reply',
  'response',
  'solucao',
  'solution',
  'body',
  'corpo',
  'conteudo',
  'content',
  'texto',
  'text',
  'mensagem',
  'message',
  'descricao',
  'description',
];
/** Columns that hold what was asked or what the record is about: never part of the answer. */
const QUESTION_COLUMNS = new Set([
  'pergunta',
  'question',
  'questao',
  'pregunta',
  'title',
  'titulo',
  'assunto',
  'subject',
  'topic',
  'topico',
]);
/** Columns that only file the record (ids, categories, dates): left out of a joined answer. */
const FILING_COLUMNS = /^(id|_?id_.*|.*_id|codigo|code|categoria|category|tags?|data|date|created.*|updated.*|score|ordem|order)$/;

/** A column name as compared: its last dotted part, lower case, without accents or spaces. */
const columnOf = (label: string): string =>
  (label.split('.').at(-1) ?? label)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

const known = (column: string): boolean => ANSWER_COLUMNS.includes(column) || QUESTION_COLUMNS.has(column);

/** A column name at the start of the chunk, of a line, or after "; ": a few words, then ": ". */
const LABEL = /(^|;[ \t]+|\n[ \t]*)([\p{L}\p{N}_][\p{L}\p{N}_ .-]{0,39}?)[ \t]*:[ \t]+/gu;

interface Field {
  column: string;
  value: string;
}

/** The chunk as records of labelled fields, or null when it does not start with a column name. */
function recordsOf(chunk: string): Field[][] | null {
  const text = chunk.trim();
  const starts = [...text.matchAll(LABEL)];
  if (!starts.length || starts[0]!.index !== 0) return null;
  const records: Field[][] = [];
  let current: Field[] = [];
  starts.forEach((m, i) => {
    const from = m.index + m[0].length;
    const to = i + 1 < starts.length ? starts[i + 1]!.index : text.length;
    const column = columnOf(m[2]!);
    // A column met twice begins the next record (records sharing an id come one a line).
    if (current.some((f) => f.column === column)) {
      records.push(current);
      current = [];
    }
    current.push({ column, value: text.slice(from, to).trim() });
  });
  records.push(current);
  return records;
}

/** One record's answer: its answer column, else what is left once the question and filing go. */
function answerOf(record: readonly Field[]): string {
  for (const name of ANSWER_COLUMNS) {
    const f = record.find((x) => x.column === name && x.value);
    if (f) return f.value;
  }
  const rest = record.filter((f) => f.value && !QUESTION_COLUMNS.has(f.column) && !FILING_COLUMNS.test(f.column));
  return rest.map((f) => f.value).join('\n');
}

/**
 * The answers of a chunk made of records, one a line; null when the chunk is not records we
 * can read: it must start with a column name and name at least one question or answer column
 * (a single column counts only when it is an answer column, "texto: …").
 */
function recordAnswers(chunk: string): string | null {
  const records = recordsOf(chunk);
  if (!records) return null;
  const fields = records.flat();
  if (fields.length === 1 ? !ANSWER_COLUMNS.includes(fields[0]!.column) : !fields.some((f) => known(f.column))) return null;
  const answers = records.map(answerOf).filter(Boolean);
  return answers.length ? answers.join('\n').trim() : null;
}
