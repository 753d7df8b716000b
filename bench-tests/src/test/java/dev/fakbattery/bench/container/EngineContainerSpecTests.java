package dev.fakbattery.bench.container;

import static dev.fakbattery.bench.container.Configs.SGLANG_IMAGE;
import static dev.fakbattery.bench.container.Configs.VLLM_IMAGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("engine container spec: a pure value, no Docker, no GPU")
class EngineContainerSpecTests {

	private static final String TOKEN = "hf_abcdefghijklmnopqrstuvwxyz012345";

	private static final HarnessConfig FULL_VLLM = Configs.of("engine.image", VLLM_IMAGE, "model", "glm-5.2",
			"checkpoint.model", "zai-org/GLM-5.2-FP8", "context.length", "131072", "engine.tp", "8",
			"engine.tool.parser", "glm45", "engine.hf.token.env", "MY_HF");

	private static final HarnessConfig FULL_SGLANG = Configs.of("engine", "sglang", "engine.image", SGLANG_IMAGE,
			"model", "glm-5.2", "checkpoint.model", "zai-org/GLM-5.2-FP8", "context.length", "131072", "engine.tp", "8",
			"engine.tool.parser", "glm45", "engine.hf.token.env", "MY_HF");

	@Nested
	@DisplayName("command lines")
	class CommandLines {

		@Test
		@DisplayName("vLLM: the image's entrypoint, every flag")
		void vllmFull() {
			EngineContainerSpec spec = EngineContainerSpec.from(FULL_VLLM);
			assertThat(spec.engine()).isEqualTo("vllm");
			assertThat(spec.image()).isEqualTo(VLLM_IMAGE);
			assertThat(spec.entrypoint()).isEmpty();
			assertThat(spec.commandLine()).containsExactly("--model", "zai-org/GLM-5.2-FP8", "--served-model-name", "glm-5.2",
					"--port", "8000", "--host", "0.0.0.0", "--enable-auto-tool-choice", "--tool-call-parser", "glm45",
					"--max-model-len", "131072", "--tensor-parallel-size", "8");
		}

		@Test
		@DisplayName("vLLM defaults: checkpoint = model, hermes, tp 1, no --max-model-len")
		void vllmDefaults() {
			EngineContainerSpec spec = EngineContainerSpec.from(Configs.vllm());
			assertThat(spec.commandLine()).containsExactly("--model", "qwen", "--served-model-name", "qwen", "--port", "8000",
					"--host", "0.0.0.0", "--enable-auto-tool-choice", "--tool-call-parser", "hermes",
					"--tensor-parallel-size", "1");
		}

		@Test
		@DisplayName("SGLang: python3 -m sglang.launch_server as entrypoint, its own flag names")
		void sglangFull() {
			EngineContainerSpec spec = EngineContainerSpec.from(FULL_SGLANG);
			assertThat(spec.engine()).isEqualTo("sglang");
			assertThat(spec.entrypoint()).containsExactly("python3", "-m", "sglang.launch_server");
			assertThat(spec.args()).containsExactly("--model-path", "zai-org/GLM-5.2-FP8", "--served-model-name", "glm-5.2",
					"--port", "8000", "--host", "0.0.0.0", "--tool-call-parser", "glm45", "--context-length", "131072",
					"--tp-size", "8");
			assertThat(spec.commandLine()).startsWith("python3", "-m", "sglang.launch_server", "--model-path");
		}

		@Test
		@DisplayName("SGLang defaults: qwen25, tp 1, no --context-length")
		void sglangDefaults() {
			EngineContainerSpec spec = EngineContainerSpec.from(Configs.of("engine", "SGLang", "engine.image", SGLANG_IMAGE,
					"model", "qwen"));
			assertThat(spec.commandLine()).containsExactly("python3", "-m", "sglang.launch_server", "--model-path", "qwen",
					"--served-model-name", "qwen", "--port", "8000", "--host", "0.0.0.0", "--tool-call-parser", "qwen25",
					"--tp-size", "1");
		}

		@Test
		@DisplayName("describe() is an equivalent docker run line")
		void describe() {
			assertThat(EngineContainerSpec.from(FULL_VLLM).describe()).isEqualTo("docker run --gpus all --shm-size 16g -p 8000 "
					+ "-e HF_TOKEN=<from $MY_HF> vllm/vllm-openai:v0.11.0 --model zai-org/GLM-5.2-FP8 "
					+ "--served-model-name glm-5.2 --port 8000 --host 0.0.0.0 --enable-auto-tool-choice --tool-call-parser glm45 "
					+ "--max-model-len 131072 --tensor-parallel-size 8");
			assertThat(EngineContainerSpec.from(FULL_SGLANG).describe()).isEqualTo("docker run --gpus all --shm-size 16g -p 8000 "
					+ "-e HF_TOKEN=<from $MY_HF> --entrypoint python3 lmsysorg/sglang:v0.5.4 -m sglang.launch_server "
					+ "--model-path zai-org/GLM-5.2-FP8 --served-model-name glm-5.2 --port 8000 --host 0.0.0.0 "
					+ "--tool-call-parser glm45 --context-length 131072 --tp-size 8");
		}

		@Test
		@DisplayName("describe() quotes a word with a space")
		void describeQuotes() {
			EngineContainerSpec spec = EngineContainerSpec.from(Configs.vllm("checkpoint.model", "/models/my model"));
			assertThat(spec.describe()).contains("--model '/models/my model' --served-model-name qwen");
			assertThat(spec.commandLine()).contains("/models/my model");
		}

		@Test
		@DisplayName("toString() adds the health wait")
		void toStringHasHealthWait() {
			assertThat(EngineContainerSpec.from(Configs.vllm("engine.startup.timeout.sec", "600")).toString())
					.isEqualTo("docker run --gpus all --shm-size 16g -p 8000 vllm/vllm-openai:v0.11.0 --model qwen "
							+ "--served-model-name qwen --port 8000 --host 0.0.0.0 --enable-auto-tool-choice --tool-call-parser hermes "
							+ "--tensor-parallel-size 1 (ready when GET /health answers 200, within 600 s)");
		}
	}

	@Nested
	@DisplayName("llama.cpp on the CPU")
	class LlamaCpp {

		private final EngineContainerSpec spec = EngineContainerSpec.from(Configs.of("engine", "llamacpp", "engine.image",
				"fak-battery/llamacpp:0123456789ab", "model", "tiny-random-llama", "checkpoint.model", "tiny-random-llama.gguf",
				"context.length", "2048"));

		@Test
		@DisplayName("-Pllamacpp's flags: the model under /models, 4 slots of context.length, one thread, metrics, slot erase")
		void args() {
			assertThat(spec.engine()).isEqualTo("llamacpp");
			assertThat(spec.entrypoint()).isEmpty();
			assertThat(spec.commandLine()).containsExactly("-m", "/models/tiny-random-llama.gguf", "--host", "0.0.0.0", "--port",
					"8000", "-a", "tiny-random-llama", "-c", "8192", "-np", "4", "-t", "1", "--jinja", "--no-webui", "--metrics",
					"--slot-save-path", "/slots", "--cache-ram", "0");
		}

		@Test
		@DisplayName("no GPU, Docker's default shared memory: describe() says neither")
		void noGpu() {
			assertThat(spec.gpus()).isFalse();
			assertThat(spec.sharedMemoryBytes()).isZero();
			assertThat(spec.describe()).startsWith("docker run -p 8000 fak-battery/llamacpp:0123456789ab -m /models/");
		}

		@ParameterizedTest
		@CsvSource({ "1, 1", "2-7, 6", "'0,2', 2", "'0-3,2,8-9', 6" })
		@DisplayName("engine.cpuset: the container restricted to it, one llama.cpp thread per CPU in it (never more: no oversubscription)")
		void cpuset(String cpuset, int threads) {
			EngineContainerSpec pinned = EngineContainerSpec.from(Configs.of("engine", "llamacpp", "engine.image",
					"fak-battery/llamacpp:0123456789ab", "model", "m", "checkpoint.model", "m.gguf", "engine.cpuset", cpuset));
			assertThat(pinned.cpuset()).contains(cpuset);
			assertThat(pinned.args()).containsSubsequence("-t", String.valueOf(threads));
			assertThat(pinned.args().get(pinned.args().indexOf("-t") + 1)).isEqualTo(String.valueOf(threads));
			assertThat(pinned.describe()).startsWith("docker run --cpuset-cpus " + cpuset + " -p 8000 fak-battery/llamacpp:");
			assertThat(spec.cpuset()).isEmpty();
			assertThat(spec.describe()).doesNotContain("--cpuset-cpus");
		}

		@Test
		@DisplayName("an absolute checkpoint.model is used as it is; no context.length, no -c")
		void absoluteModel() {
			EngineContainerSpec absolute = EngineContainerSpec.from(Configs.of("engine", "llamacpp", "engine.image",
					"fak-battery/llamacpp:0123456789ab", "model", "m", "checkpoint.model", "/data/m.gguf"));
			assertThat(absolute.args()).startsWith("-m", "/data/m.gguf").doesNotContain("-c");
		}
	}

	@Nested
	@DisplayName("container settings")
	class Settings {

		@Test
		@DisplayName("port 8000, all GPUs, 16 GiB shared memory, /health, 30 min startup, 30 min pull, logs in experiments.dir/logs")
		void defaults() {
			EngineContainerSpec spec = EngineContainerSpec.from(Configs.vllm("experiments.dir", "/tmp/exp"));
			assertThat(spec.port()).isEqualTo(8000);
			assertThat(spec.gpus()).isTrue();
			assertThat(spec.pullTimeout()).isEqualTo(Duration.ofMinutes(30));
			assertThat(spec.logDirectory()).isEqualTo(java.nio.file.Path.of("/tmp/exp/logs"));
			assertThat(spec.sharedMemoryBytes()).isEqualTo(17_179_869_184L);
			assertThat(spec.healthPath()).isEqualTo("/health");
			assertThat(spec.startupTimeout()).isEqualTo(Duration.ofMinutes(30));
			assertThat(spec.hfTokenEnv()).isEmpty();
		}

		@Test
		@DisplayName("engine.startup.timeout.sec sets the health wait")
		void timeout() {
			assertThat(EngineContainerSpec.from(Configs.vllm("engine.startup.timeout.sec", "3600")).startupTimeout())
					.isEqualTo(Duration.ofHours(1));
		}

		@Test
		@DisplayName("the device request asks for all GPUs, like --gpus all")
		void allGpus() {
			var request = EngineContainerSpec.from(Configs.vllm()).deviceRequest();
			assertThat(request.getCount()).isEqualTo(-1);
			assertThat(request.getCapabilities()).isEqualTo(List.of(List.of("gpu")));
			assertThat(request.getDriver()).isNull();
		}

		@Test
		@DisplayName("the same configuration gives an equal spec")
		void valueEquality() {
			assertThat(EngineContainerSpec.from(FULL_VLLM)).isEqualTo(EngineContainerSpec.from(FULL_VLLM))
					.isNotEqualTo(EngineContainerSpec.from(Configs.vllm()));
		}
	}

	@Nested
	@DisplayName("the Hugging Face token")
	class Token {

		@Test
		@DisplayName("reaches the container env as HF_TOKEN, from the variable engine.hf.token.env names")
		void passedIn() {
			EngineContainerSpec spec = EngineContainerSpec.from(FULL_VLLM);
			assertThat(spec.hfTokenEnv()).contains("MY_HF");
			assertThat(spec.containerEnv(Map.of("MY_HF", TOKEN)::get)).isEqualTo(Map.of("HF_TOKEN", TOKEN));
		}

		@Test
		@DisplayName("is never printed: describe() and toString() show where it comes from")
		void neverPrinted() {
			EngineContainerSpec spec = EngineContainerSpec.from(FULL_SGLANG);
			spec.containerEnv(Map.of("MY_HF", TOKEN)::get);
			assertThat(spec.describe()).contains("-e HF_TOKEN=<from $MY_HF>").doesNotContain(TOKEN);
			assertThat(spec.toString()).contains("-e HF_TOKEN=<from $MY_HF>").doesNotContain(TOKEN);
		}

		@Test
		@DisplayName("no engine.hf.token.env: no env, the environment is not read")
		void none() {
			assertThat(EngineContainerSpec.from(Configs.vllm()).containerEnv(name -> {
				throw new AssertionError("read " + name);
			})).isEmpty();
		}

		@ParameterizedTest
		@ValueSource(strings = { "", " " })
		@DisplayName("the named variable unset or empty is a misconfiguration naming it")
		void unset(String value) {
			EngineContainerSpec spec = EngineContainerSpec.from(FULL_VLLM);
			assertThatThrownBy(() -> spec.containerEnv(Map.of("MY_HF", value)::get))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("engine.hf.token.env names the environment variable MY_HF, which is not set (or empty) in this "
							+ "JVM's environment. Fix: export MY_HF=<your Hugging Face token> before ./mvnw, or remove "
							+ "-Dengine.hf.token.env for a public checkpoint.");
			assertThatThrownBy(() -> spec.containerEnv(name -> null)).isInstanceOf(ConfigurationException.class);
		}

		@ParameterizedTest
		@ValueSource(strings = { TOKEN, "hf token", "1HF", "$HF_TOKEN", "HF-TOKEN" })
		@DisplayName("a value that is not a variable name, or looks like a token, is refused without echoing it")
		void notAName(String value) {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine.hf.token.env", value)))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("engine.hf.token.env must be the NAME of an environment variable (letters, digits and '_'), "
							+ "not the token; its value is not printed. Fix: export HF_TOKEN=<token> and pass "
							+ "-Dengine.hf.token.env=HF_TOKEN.")
					.message()
					.doesNotContain(value);
		}
	}

	@Nested
	@DisplayName("bad values are misconfigurations naming the parameter and the fix")
	class BadValues {

		@Test
		void imageUnset() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.of("model", "qwen")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("engine.image is not set: there is no engine container to start. Fix: pass "
							+ "-Dengine.image=vllm/vllm-openai:v0.11.0 (or an lmsysorg/sglang:<tag> image with -Dengine=sglang).");
		}

		@Test
		void imageNotAReference() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine.image", "vllm openai:1")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse engine.image value [vllm openai:1]: expected a Docker image reference. Fix: pass "
							+ "-Dengine.image=vllm/vllm-openai:v0.11.0 or remove it and pass -Dbase.url of an engine you started.");
		}

		@ParameterizedTest
		@ValueSource(strings = { "vllm/vllm-openai", "vllm/vllm-openai:latest", "registry.local:5000/vllm-openai" })
		@DisplayName("an unpinned image is refused: the artifact must name the engine build")
		void imageUnpinned(String image) {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine.image", image)))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("engine.image value [" + image + "] is not pinned: an artifact must name the engine build it "
							+ "measured. Fix: pass a version tag or digest, for example -Dengine.image=vllm/vllm-openai:v0.11.0 "
							+ "(not :latest).");
		}

		@ParameterizedTest
		@ValueSource(strings = { "registry.local:5000/vllm-openai:v0.11.0",
			"vllm/vllm-openai@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" })
		@DisplayName("a registry port with a tag, or a digest, is pinned")
		void imagePinned(String image) {
			assertThat(EngineContainerSpec.from(Configs.vllm("engine.image", image)).image()).isEqualTo(image);
		}

		@Test
		void modelUnset() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.of("engine.image", VLLM_IMAGE)))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("engine.image is set but model is not: the container needs the served model name. Fix: pass "
							+ "-Dmodel=<served name> and, when the checkpoint differs, -Dcheckpoint.model=<Hugging Face id or path>.");
		}

		@ParameterizedTest
		@ValueSource(strings = { "model", "checkpoint.model" })
		@DisplayName("a model that would read as a flag")
		void modelIsAFlag(String name) {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm(name, "--trust-remote-code")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse " + name + " value [--trust-remote-code]: expected a model name or path, not a "
							+ "flag. Fix: pass -D" + name + "=Qwen/Qwen2.5-7B-Instruct.");
		}

		@Test
		void parser() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine.tool.parser", "hermes --x")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse engine.tool.parser value [hermes --x]: expected one parser name (letters, digits, "
							+ "'.', '_', '-'). Fix: pass -Dengine.tool.parser=hermes or remove it to use the default "
							+ "(hermes for vllm, qwen25 for sglang; llama.cpp has none).");
		}

		@Test
		void tensorParallel() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine.tp", "0")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse engine.tp value [0]: expected a positive integer. Fix: pass -Dengine.tp=1 or "
							+ "remove it to use the default.");
		}

		@Test
		void startupTimeout() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine.startup.timeout.sec", "30m")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse engine.startup.timeout.sec value [30m]: expected a positive integer. Fix: pass "
							+ "-Dengine.startup.timeout.sec=1800 or remove it to use the default.");
		}

		@Test
		void contextLength() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("context.length", "128k")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse context.length value [128k]: expected a positive integer. Fix: pass "
							+ "-Dcontext.length=131072 or remove it to use the default.");
		}

		@ParameterizedTest
		@ValueSource(strings = { "one", "1-", "-1", "3-1", "1,,2", "1 2", "1;2", "0x1", "12345", "1,", "all" })
		@DisplayName("engine.cpuset that is not a Docker cpuset: a misconfiguration naming the key and the fix")
		void cpuset(String cpuset) {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine.cpuset", cpuset)))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse engine.cpuset value [" + cpuset + "]: expected a Docker cpuset, CPU numbers and "
							+ "ascending ranges separated by commas (1, 2-7, 0,2). Fix: pass -Dengine.cpuset=1 (one core for the engine) "
							+ "or remove it to let the engine use every CPU.");
		}

		@Test
		void engine() {
			assertThatThrownBy(() -> EngineContainerSpec.from(Configs.vllm("engine", "tgi")))
					.isInstanceOf(ConfigurationException.class)
					.hasMessage("Unable to parse engine value [tgi]: expected one of vllm, sglang, llamacpp. Fix: pass -Dengine=vllm or "
							+ "remove it to use the default.");
		}
	}

	@Test
	@DisplayName("the spec keeps its lists immutable")
	void immutable() {
		EngineContainerSpec spec = EngineContainerSpec.from(Configs.vllm());
		assertThatThrownBy(() -> spec.args().add("--x")).isInstanceOf(UnsupportedOperationException.class);
		assertThat(spec.hfTokenEnv()).isEqualTo(Optional.empty());
	}
}
