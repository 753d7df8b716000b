package dev.fakbattery.capture;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;

/**
 * {@code java -jar wire-capture/target/wire-capture.jar --base-url URL --model NAME --engine vllm|sglang|llamacpp --out DIR
 * [--parser NAME] [--api-key-env NAME] [--prompts A,B]}: records a live engine's answers to the wire kit's capture
 * prompts ({@link CapturePrompts}), whole and streamed, with a provenance sidecar each, in the folder layout the kit
 * replays with {@code -Dwire.captures=DIR}. Exits 0 when every answer was the one its prompt expects (HTTP 200; a 4xx
 * for the prompt every engine must refuse), 1 when one was not or the engine could not be reached, 2 with the usage
 * on a bad command line.
 *
 * @since 0.2
 */
public final class CaptureMain {

	private CaptureMain() {
	}

	public static void main(String[] args) throws InterruptedException {
		System.exit(run(args, System.out, System.err));
	}

	/** Runs the command, printing progress to {@code out} and problems to {@code err}; its exit status. */
	public static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
		CaptureArguments arguments;
		try {
			arguments = CaptureArguments.parse(args);
			Capturer.requireWritable(arguments.out());
		}
		catch (IllegalArgumentException | UncheckedIOException e) {
			err.println("wire-capture: " + e.getMessage());
			err.print(CaptureArguments.USAGE);
			return 2;
		}
		try {
			int failed = new Capturer(arguments, "java -jar wire-capture.jar " + String.join(" ", args), Clock.systemUTC()).captureAll(out);
			if (failed > 0) {
				err.println("wire-capture: " + failed + " answer(s) were not what their prompt expects (HTTP 200; a 4xx for "
						+ "error-invalid-tool-choice); their bodies are kept, the kit replays chat answers and error answers");
				return 1;
			}
			out.println("replay with: ./mvnw verify -pl conformance-tests -am -Dwire.captures=" + arguments.out().toAbsolutePath());
			return 0;
		}
		catch (IOException e) {
			err.println("wire-capture: " + arguments.baseUrl() + " could not be reached or written: " + e.getMessage());
			return 1;
		}
		catch (IllegalStateException refused) {
			err.println("wire-capture: " + refused.getMessage());
			return 1;
		}
	}
}
