export type BenchRow = {
  figure: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  budget?: string;
  holds?: boolean;
};
