package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.RedactingOutputStream;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("a started process's log holds its output with every secret redacted")
class ManagedProcessLogTests {

	static final SecretGuard GUARD = CanaryForms.guard(CanaryForms.KEY);

	@TempDir
	Path dir;

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.fakbattery.wire.CanaryForms#oneLineForms")
	@DisplayName("a line that prints the key in a form is written redacted, the lines around it as they were")
	void redactsEachForm(String name, String expectedForm, UnaryOperator<String> encode) throws Exception {
		Path printed = dir.resolve("printed.txt");
		Files.writeString(printed, "first line\nthe key: " + encode.apply(CanaryForms.KEY) + "\nlast line, no newline");
		Path log = dir.resolve("engine.log");

		try (ManagedProcess process = ManagedProcess.start("engine.cmd", "cat '" + printed + "' >&2", log, GUARD)) {
			awaitExit(process);
		}

		String written = Files.readString(log, StandardCharsets.UTF_8);
		assertThat(GUARD.find(written)).as(name + ": " + written).isEmpty();
		assertThat(written.split("\n")).as(written).hasSize(3).startsWith("first line").endsWith("last line, no newline");
		assertThat(written.split("\n")[1]).contains("[REDACTED api.key.env");
	}

	@Test
	@DisplayName("the key at every offset of a line longer than the part held at once is redacted")
	void redactsAcrossLongLines() throws Exception {
		Path printed = dir.resolve("printed.txt");
		StringBuilder text = new StringBuilder();
		for (int offset : List.of(RedactingOutputStream.LONGEST_LINE - 5, RedactingOutputStream.LONGEST_LINE + 3,
				3 * RedactingOutputStream.LONGEST_LINE - 1)) {
			text.append("x".repeat(offset)).append(CanaryForms.KEY).append("y".repeat(100)).append('\n');
		}
		Files.writeString(printed, text);
		Path log = dir.resolve("gateway.log");

		try (ManagedProcess process = ManagedProcess.start("gateway.cmd", "cat '" + printed + "'", log, GUARD)) {
			awaitExit(process);
		}

		assertThat(GUARD.find(Files.readAllBytes(log))).isEmpty();
		assertThat(Files.readString(log)).contains("[REDACTED api.key.env]");
	}

	@Test
	@DisplayName("a failed start's message quotes the log's last lines redacted")
	void failureQuotesTheRedactedLog() {
		Path log = dir.resolve("gateway.log");

		assertThatThrownBy(() -> ManagedProcess.start("gateway.cmd", "echo 'auth " + CanaryForms.KEY.replace("'", "") + "'; exit 3", log,
				CanaryForms.guard(CanaryForms.KEY.replace("'", ""))).awaitHealthy(List.of(), Duration.ofSeconds(20)))
				.hasMessageContaining("exited with status 3")
				.hasMessageContaining("auth [REDACTED api.key.env]")
				.hasMessageNotContaining(CanaryForms.KEY);
	}

	@Test
	@DisplayName("self-test: with no secret to guard, the key goes to the log as printed, so the redaction tests can fail")
	void unguardedLogHoldsTheKey() throws Exception {
		Path log = dir.resolve("engine.log");
		try (ManagedProcess process = ManagedProcess.start("engine.cmd", "echo 'sk-canary-0123456789'", log, SecretGuard.none())) {
			awaitExit(process);
		}

		assertThat(CanaryForms.guard("sk-canary-0123456789").find(Files.readString(log))).contains(
				"the value of the environment variable CANARY (api.key.env), raw");
	}

	private static void awaitExit(ManagedProcess process) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (process.isAlive() && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		assertThat(process.isAlive()).as("the command ended").isFalse();
	}
}
