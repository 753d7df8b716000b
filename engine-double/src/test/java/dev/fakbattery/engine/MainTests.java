package dev.fakbattery.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("command line")
class MainTests {

	@Test
	@DisplayName("--dialect, --port, --model, --seed, --timing configure the double")
	void configure() throws IOException {
		EngineDouble.Builder builder = Main.configure(new String[]{ "--dialect", "SGLang", "--port", "0", "--model", "m/x",
			"--seed", "5", "--timing", "instant", "--completion-tokens", "2" });
		try (EngineDouble engine = builder.start()) {
			assertThat(engine.dialect()).isEqualTo(Dialect.SGLANG);
			assertThat(engine.model()).isEqualTo("m/x");
			assertThat(engine.baseUrl()).isEqualTo("http://127.0.0.1:" + engine.port() + "/v1");
			assertThat(TestHttp.get(engine.baseUrl() + "/models").body()).contains("\"id\":\"m/x\"");
		}
	}

	@Test
	@DisplayName("bad command lines fail with a message that names the option")
	void errors() {
		assertThatThrownBy(() -> Main.configure(new String[]{ "--dialect", "tgi", "--port", "1" }))
				.hasMessage("Unable to parse engine dialect [tgi]: use one of vllm, sglang, llamacpp");
		assertThatThrownBy(() -> Main.configure(new String[]{ "--dialect", "llamacpp", "--port", "1" }))
				.hasMessage("the engine double speaks [vllm, sglang], not llamacpp: run the real engine (for llama.cpp, llama-server with "
						+ "-Pllamacpp or -Dengine.cmd)");
		assertThatThrownBy(() -> Main.configure(new String[]{ "--dialect", "vllm" }))
				.hasMessage("--dialect and --port are required");
		assertThatThrownBy(() -> Main.configure(new String[]{ "--dialect", "vllm", "--port", "x" }))
				.hasMessage("Unable to parse --port value [x]: expected an integer");
		assertThatThrownBy(() -> Main.configure(new String[]{ "--dialect", "vllm", "--port", "0", "--timing", "slow" }))
				.hasMessage("Unable to parse --timing value [slow]: use default or instant");
		assertThatThrownBy(() -> Main.configure(new String[]{ "--verbose" })).hasMessage("option --verbose needs a value");
	}
}
