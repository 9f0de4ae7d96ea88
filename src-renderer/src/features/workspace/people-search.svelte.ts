import { failure, invoke, type Worded, worded } from '../../lib/bridge';

/**
 * The people of the workspace in front (attendants, supervisors, administrators) whose name or
 * user name matches what was typed, for the "who are you" picker. Only the newest search's
 * answer is kept.
 */
export class PeopleSearch {
  #people = $state.raw<Array<{ userName: string; name: string }>>([]);
  #error = $state.raw<Worded | null>(null);
  #seq = 0;

  get people() {
    return this.#people;
  }
  get error() {
    return worded(this.#error);
  }

  async find(search: string): Promise<void> {
    const mine = ++this.#seq;
    try {
      const got = await invoke('workspace:people', { search });
      if (mine === this.#seq) {
        this.#people = got.people;
        this.#error = null;
      }
    } catch (e) {
      if (mine === this.#seq) this.#error = failure(e);
    }
  }
}
