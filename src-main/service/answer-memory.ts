/**
 * The bytes of service answers being read, over every call of the process (every workspace's
 * client): whatever the services send, the answers in flight hold about `budget` bytes between
 * them at most (each also within its own limit). The answer that started first always reads on,
 * so answers never wait on one another for good; the others pause while the total is over the
 * budget and go on, in the order they started, as memory is released.
 */
export class AnswerMemory {
  #held = 0;
  /** In the order the answers started. */
  readonly #readers = new Map<object, { bytes: number; onRoom: (() => void) | null }>();

  constructor(readonly budget: number) {}

  /** Bytes held now by the answers in flight. */
  get held(): number {
    return this.#held;
  }

  open(): AnswerReader {
    const key = {};
    const reader = { bytes: 0, onRoom: null as (() => void) | null };
    this.#readers.set(key, reader);
    return {
      take: (bytes, onRoom) => {
        reader.bytes += bytes;
        this.#held += bytes;
        if (this.#held <= this.budget || this.#readers.keys().next().value === key) return true;
        reader.onRoom = onRoom;
        return false;
      },
      release: () => {
        if (!this.#readers.delete(key)) return;
        this.#held -= reader.bytes;
        reader.onRoom = null;
        this.#wake();
      },
    };
  }

  #wake(): void {
    let first = true;
    for (const reader of this.#readers.values()) {
      if (reader.onRoom && (first || this.#held <= this.budget)) {
        const go = reader.onRoom;
        reader.onRoom = null;
        go();
      }
      first = false;
    }
  }
}

export interface AnswerReader {
  /** Counts `bytes` more as held; false when this answer must wait: `onRoom` says when it may go on. */
  take(bytes: number, onRoom: () => void): boolean;
  /** The answer is done with (read, cut or failed): its bytes are held no longer. */
  release(): void;
}

/** The process's own: 24 MiB, the largest answer (a list) and room for smaller ones beside it. */
export const processAnswerMemory = new AnswerMemory(24 * 1024 * 1024);
