package dev.fakbattery.bench.preflight;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.fakbattery.core.process.CommandResult;
import dev.fakbattery.core.process.CommandRunner;

/** Test inputs: the nvidia-smi outputs under {@code src/test/resources/preflight} and recorded probe results. */
final class PreflightFixtures {

	static final Clock CLOCK = Clock.fixed(Instant.parse("2026-07-03T10:00:00Z"), ZoneOffset.UTC);

	static final CommandResult VLLM_PRESENT = new CommandResult(0, "0.11.0\n", "");

	static final CommandResult VLLM_MISSING = new CommandResult(1, "",
			"Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
					+ "ModuleNotFoundError: No module named 'vllm'\n");

	private PreflightFixtures() {
	}

	static String resource(String name) {
		try (InputStream in = PreflightFixtures.class.getResourceAsStream("/preflight/" + name)) {
			if (in == null) {
				throw new IllegalStateException("missing test resource /preflight/" + name);
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** Probes that answer nvidia-smi with {@code smiOutput} (or "not found" when null) and the import with {@code engineImport}. */
	static PreflightProbes probes(String smiOutput, CommandResult engineImport) {
		CommandRunner runner = argv -> {
			if (argv.get(0).equals("nvidia-smi")) {
				return smiOutput == null
						? CommandResult.notStarted("nvidia-smi: No such file or directory")
						: new CommandResult(0, smiOutput, "");
			}
			return engineImport;
		};
		return new SystemPreflightProbes(runner, HttpClient.newHttpClient(), "python",
				Duration.ofSeconds(1));
	}

	static PreflightReport run(PreflightConfig config, String smiResource, CommandResult engineImport) {
		String smi = smiResource == null ? null : resource(smiResource);
		return PreflightEvaluator.run(config, probes(smi, engineImport), CLOCK);
	}
}
