package dev.fakbattery.engine;

import java.util.concurrent.CountDownLatch;

import dev.fakbattery.wire.Dialect;

/**
 * {@code java -jar engine-double.jar --dialect vllm|sglang --port N [--model NAME] [--seed S]
 * [--timing default|instant] [--ttft-ms MS] [--itl-ms MS] [--per-prompt-token-us US] [--batch-alpha A] [--jitter J]
 * [--spin-us US] [--completion-tokens N]}: runs a double until the process is stopped. The timing options change the chosen
 * {@code --timing} model; its scheduling lag is read at {@value EngineDouble#LAG_PATH}.
 *
 * @since 0.1
 */
public final class Main {

	private static final String USAGE = "usage: java -jar engine-double.jar --dialect vllm|sglang --port N [--model NAME]"
			+ " [--seed S] [--timing default|instant] [--ttft-ms MS] [--itl-ms MS] [--per-prompt-token-us US] [--batch-alpha A]"
			+ " [--jitter J] [--spin-us US] [--completion-tokens N]";

	private Main() {
	}

	/** Starts a double from command-line options; exits with status 2 and a usage line on bad options. */
	public static void main(String[] args) throws Exception {
		EngineDouble.Builder builder;
		try {
			builder = configure(args);
		}
		catch (IllegalArgumentException e) {
			System.err.println(e.getMessage());
			System.err.println(USAGE);
			System.exit(2);
			return;
		}
		EngineDouble engine = builder.start();
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			engine.close();
			stopped.countDown();
		}));
		System.out.println("engine-double " + engine.dialect().id() + " serving " + engine.model() + " at " + engine.baseUrl());
		stopped.await();
	}

	static EngineDouble.Builder configure(String[] args) {
		EngineDouble.Builder builder = EngineDouble.builder();
		TimingModel timing = TimingModel.defaults();
		boolean dialect = false;
		boolean port = false;
		for (int i = 0; i < args.length; i++) {
			String option = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("option " + option + " needs a value");
			}
			String value = args[++i];
			switch (option) {
				case "--dialect" -> {
					builder.dialect(Dialect.parse(value));
					dialect = true;
				}
				case "--port" -> {
					builder.port(parseInt(option, value));
					port = true;
				}
				case "--model" -> builder.model(value);
				case "--seed" -> builder.seed(parseLong(option, value));
				case "--completion-tokens" -> builder.completionTokens(parseInt(option, value));
				case "--timing" -> timing = switch (value) {
					case "default" -> TimingModel.defaults();
					case "instant" -> TimingModel.instant();
					default -> throw new IllegalArgumentException("Unable to parse --timing value [" + value + "]: use default or instant");
				};
				case "--ttft-ms" -> timing = timing.withTtftBase(java.time.Duration.ofNanos(Math.round(parseDouble(option, value) * 1e6)));
				case "--itl-ms" -> timing = timing.withItlBase(java.time.Duration.ofNanos(Math.round(parseDouble(option, value) * 1e6)));
				case "--per-prompt-token-us" -> timing = timing.withPerPromptToken(
						java.time.Duration.ofNanos(Math.round(parseDouble(option, value) * 1e3)));
				case "--batch-alpha" -> timing = timing.withBatchAlpha(parseDouble(option, value));
				case "--jitter" -> timing = timing.withJitter(parseDouble(option, value));
				case "--spin-us" -> builder.spin(java.time.Duration.ofNanos(Math.round(parseDouble(option, value) * 1e3)));
				default -> throw new IllegalArgumentException("unknown option " + option);
			}
		}
		if (!dialect || !port) {
			throw new IllegalArgumentException("--dialect and --port are required");
		}
		return builder.timing(timing);
	}

	private static int parseInt(String option, String value) {
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException e) {
			throw new IllegalArgumentException("Unable to parse " + option + " value [" + value + "]: expected an integer", e);
		}
	}

	private static double parseDouble(String option, String value) {
		try {
			double parsed = Double.parseDouble(value);
			if (parsed >= 0 && Double.isFinite(parsed)) {
				return parsed;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw new IllegalArgumentException("Unable to parse " + option + " value [" + value + "]: expected a number >= 0");
	}

	private static long parseLong(String option, String value) {
		try {
			return Long.parseLong(value);
		}
		catch (NumberFormatException e) {
			throw new IllegalArgumentException("Unable to parse " + option + " value [" + value + "]: expected an integer", e);
		}
	}
}
