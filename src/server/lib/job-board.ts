import { describeError } from './safe-error';

/** What the System page shows of one of the server's background jobs (decision 039). */
export interface JobRecord {
  name: string;
  /** In the owner's words: "Sending e-mail", "Automatic backups". */
  label: string;
  /** How often it runs, in seconds. */
  everySeconds: number;
  runs: number;
  failures: number;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  /** The last run's failure, as describeError keeps it (no query values); null once a run succeeds. */
  lastError: string | null;
  lastErrorAt: Date | null;
  nextRunAt: Date | null;
}

export type JobOutcome = 'ok' | 'failed';
type RunListener = (name: string, outcome: JobOutcome, seconds: number) => void;

/**
 * The server's background jobs (the mail relay, the automatic backups, the payment reconciler, the
 * daily System check), each with its last run, next run and last error, kept in memory for the
 * System page and the metrics. A job that was never started here (the command line, a test that does
 * not start them) has no runs: the page says it has not run since the server started.
 */
export class JobBoard {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly listeners: RunListener[] = [];

  /** Declares a job; declaring it again keeps its record and takes the new label and period. */
  declare(name: string, label: string, everySeconds: number): void {
    const known = this.jobs.get(name);
    if (known) Object.assign(known, { label, everySeconds });
    else
      this.jobs.set(name, {
        name,
        label,
        everySeconds,
        runs: 0,
        failures: 0,
        lastStartedAt: null,
        lastFinishedAt: null,
        lastError: null,
        lastErrorAt: null,
        nextRunAt: null,
      });
  }

  /** When the job runs next (its timer's next turn). */
  scheduled(name: string, at: Date): void {
    const job = this.jobs.get(name);
    if (job) job.nextRunAt = at;
  }

  /** Runs one turn of a declared job and records how it went; its error is recorded and thrown on. */
  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No job named ${name} was declared`);
    const started = new Date();
    job.lastStartedAt = started;
    let outcome: JobOutcome = 'failed';
    try {
      const result = await work();
      outcome = 'ok';
      job.lastError = null;
      return result;
    } catch (error) {
      job.failures += 1;
      job.lastError = describeError(error);
      job.lastErrorAt = new Date();
      throw error;
    } finally {
      job.runs += 1;
      job.lastFinishedAt = new Date();
      const seconds = (job.lastFinishedAt.getTime() - started.getTime()) / 1000;
      for (const listener of this.listeners) listener(name, outcome, seconds);
    }
  }

  /** Told of every run (the metrics count them). */
  onRun(listener: RunListener): void {
    this.listeners.push(listener);
  }

  get(name: string): JobRecord | undefined {
    const job = this.jobs.get(name);
    return job ? { ...job } : undefined;
  }

  list(): JobRecord[] {
    return [...this.jobs.values()].map((job) => ({ ...job }));
  }
}

/**
 * Runs `work` every `everyMs` (first after `firstAfterMs`) as the board's job `name`, one turn at a
 * time (a turn still running when the timer fires is not started again). A failed turn is logged by
 * `onError` and recorded; the next turn runs as usual. Returns a stop.
 */
export function every(
  board: JobBoard,
  name: string,
  options: { everyMs: number; firstAfterMs?: number; onError: (error: unknown) => void },
  work: () => Promise<unknown>,
): () => void {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  const turn = () => {
    board.scheduled(name, new Date(Date.now() + options.everyMs));
    if (running) return;
    running = true;
    board
      .run(name, work)
      .catch(options.onError)
      .finally(() => {
        running = false;
      });
  };
  const firstAfter = options.firstAfterMs ?? options.everyMs;
  board.scheduled(name, new Date(Date.now() + firstAfter));
  const first = setTimeout(() => {
    turn();
    timer = setInterval(turn, options.everyMs);
    timer.unref();
  }, firstAfter);
  first.unref();
  return () => {
    clearTimeout(first);
    if (timer) clearInterval(timer);
  };
}
