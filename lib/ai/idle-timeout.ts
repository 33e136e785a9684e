import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";

/** A provider call that sent nothing for MODEL_TIMEOUT_MS. */
export class ModelTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`The model sent nothing for ${formatSeconds(ms)} s`);
    // Not "TimeoutError" or "AbortError": the SDK treats those as the caller's own abort (no error part, no retry
    // decision of ours), and this is a provider fault to report and, in the background, to retry.
    this.name = "ModelTimeoutError";
  }
}

export function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/**
 * Fails a provider call that sends nothing for `ms`: the wait for the response (headers, and the first event, which
 * some packages await inside the call) and every wait for the next stream part. The SDK's `timeout.firstChunkMs`
 * misses headers followed by silence for several packages, so the stream the package returns is watched here. A
 * non-streamed call has nothing to observe before its body, so the whole call is held to `ms`.
 */
export function idleTimeoutMiddleware(ms: number): LanguageModelV4Middleware {
  return {
    specificationVersion: "v4",
    wrapGenerate: async ({ model, params }) => {
      const watch = new IdleWatch(ms, params);
      try {
        return await watch.race(model.doGenerate({ ...params, abortSignal: watch.signal }));
      } finally {
        watch.stop();
      }
    },
    wrapStream: async ({ model, params }) => {
      const watch = new IdleWatch(ms, params);
      try {
        const result = await watch.race(model.doStream({ ...params, abortSignal: watch.signal }));
        watch.pause();
        return { ...result, stream: watch.watch(result.stream) };
      } catch (error) {
        watch.stop();
        throw error;
      }
    },
  };
}

class IdleWatch {
  readonly #controller = new AbortController();
  readonly signal: AbortSignal;
  readonly #expired: Promise<never>;
  #expire!: (error: ModelTimeoutError) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    params: LanguageModelV4CallOptions,
  ) {
    this.signal = params.abortSignal
      ? AbortSignal.any([params.abortSignal, this.#controller.signal])
      : this.#controller.signal;
    this.#expired = new Promise<never>((_, reject) => {
      this.#expire = reject;
    });
    this.#expired.catch(() => {});
    this.arm();
  }

  /** (Re)starts the wait: `ms` from now without news, the call fails. */
  arm() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const error = new ModelTimeoutError(this.ms);
      this.#expire(error);
      this.#controller.abort(error);
    }, this.ms);
  }

  pause() {
    clearTimeout(this.#timer);
  }

  stop() {
    clearTimeout(this.#timer);
  }

  race<T>(promise: PromiseLike<T>): Promise<T> {
    const settled = Promise.resolve(promise);
    // The losing side of the race rejects once the aborted request unwinds; nobody waits for it.
    settled.catch(() => {});
    return Promise.race([settled, this.#expired]);
  }

  /** The stream, failing with ModelTimeoutError when the provider leaves a read waiting for `ms`. */
  watch(stream: ReadableStream<LanguageModelV4StreamPart>): ReadableStream<LanguageModelV4StreamPart> {
    const reader = stream.getReader();
    return new ReadableStream<LanguageModelV4StreamPart>({
      pull: async (controller) => {
        this.arm();
        try {
          const { done, value } = await this.race(reader.read());
          this.pause();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          this.stop();
          controller.error(error);
          reader.cancel(error).catch(() => {});
        }
      },
      cancel: (reason) => {
        this.stop();
        return reader.cancel(reason);
      },
    });
  }
}
