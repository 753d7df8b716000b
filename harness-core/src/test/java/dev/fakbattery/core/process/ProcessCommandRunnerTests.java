package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@DisplayName("ProcessCommandRunner")
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessCommandRunnerTests {

	private final ProcessCommandRunner runner = new ProcessCommandRunner(Duration.ofSeconds(10));

	@Test
	@DisplayName("captures exit code, stdout and stderr")
	void capturesOutput() {
		CommandResult result = runner.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"));

		assertThat(result).isEqualTo(new CommandResult(3, "out\n", "err\n"));
	}

	@Test
	@DisplayName("a missing command is NOT_STARTED with the reason")
	void missingCommand() {
		CommandResult result = runner.run(List.of("/nonexistent/fak-battery-no-such-tool"));

		assertThat(result.exitCode()).isEqualTo(CommandResult.NOT_STARTED);
		assertThat(result.stderr()).startsWith("/nonexistent/fak-battery-no-such-tool could not be started: ");
	}

	@Test
	@DisplayName("a command past its timeout is killed and reported TIMED_OUT")
	void timeout() {
		CommandResult result = new ProcessCommandRunner(Duration.ofMillis(300)).run(List.of("sleep", "30"));

		assertThat(result.exitCode()).isEqualTo(CommandResult.TIMED_OUT);
		assertThat(result.stderr()).isEqualTo("timed out after PT0.3S: sleep 30");
	}
}
