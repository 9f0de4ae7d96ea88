export type BenchRow = {
  figure: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  budget?: string;
  holds?: boolean;
  /** Judged even when the machine was busy: the figure measures a busy machine on purpose. */
  judgedWhenBusy?: boolean;
};
