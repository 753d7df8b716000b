package dev.fakbattery.bench.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.fakbattery.core.process.CommandResult;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Engine import probe")
class EngineProbeTests {

	@Test
	@DisplayName("runs python -c \"import vllm,sys; print(vllm.__version__)\"")
	void command() {
		assertThat(EngineProbe.command("python", "vllm"))
				.containsExactly("python", "-c", "import vllm,sys; print(vllm.__version__)");
	}

	@Test
	@DisplayName("refuses an engine that is not a module name")
	void refusesCodeAsEngine() {
		assertThatIllegalArgumentException().isThrownBy(() -> EngineProbe.command("python", "os; os.system('x')"))
				.withMessage("Engine [os; os.system('x')] is not a Python module name: expected [a-z_][a-z0-9_]*, for example vllm.");
	}

	@Test
	@DisplayName("a successful import is present with the first line of its output as version")
	void presentEngine() {
		assertThat(EngineProbe.fromImport(new CommandResult(0, "0.11.0\nwarning\n", "")))
				.isEqualTo(new EngineProbe(true, "0.11.0", ""));
	}

	@Test
	@DisplayName("a failed import is absent with stderr cut to 200 characters")
	void absentEngine() {
		EngineProbe probe = EngineProbe.fromImport(new CommandResult(1, "", "x".repeat(300) + "\n"));

		assertThat(probe.present()).isFalse();
		assertThat(probe.version()).isEmpty();
		assertThat(probe.detail()).hasSize(200);
	}
}
