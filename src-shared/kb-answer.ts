/**
 * Knowledge-base chunks often hold a question and its answer ("P: question R: answer", or
 * Pergunta/Resposta, Q/A, Question/Answer). What goes to a customer is the answer part. Only a
 * chunk that starts with a question label is split: "escolha a opção A: cartão" stays whole.
 */
export function answerPart(chunk: string): string {
  const m = /^\s*(?:P|Pergunta|Q|Question)\s*:[\s\S]*?(?:^|\s)(?:R|Resposta|A|Answer)\s*:\s*([\s\S]+)$/u.exec(chunk);
  return (m?.[1] ?? chunk).trim();
}
