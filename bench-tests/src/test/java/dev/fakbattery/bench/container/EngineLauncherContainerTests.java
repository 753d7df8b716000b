package dev.fakbattery.bench.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.DeviceRequest;
import com.github.dockerjava.api.model.HostConfig;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.images.builder.Transferable;

/** The Testcontainers container the launcher configures, inspected without starting it (no Docker needed). */
@DisplayName("engine launcher: the Testcontainers container, configured but not started")
class EngineLauncherContainerTests {

	@TempDir
	Path dir;

	private static final EngineContainerSpec VLLM = EngineContainerSpec.from(Configs.vllm("engine.hf.token.env", "MY_HF"));
	private static final EngineContainerSpec SGLANG = EngineContainerSpec.from(Configs.of("engine", "sglang",
			"engine.image", Configs.SGLANG_IMAGE, "model", "qwen"));

	@Test
	@DisplayName("arguments, port 8000, 16 GiB shared memory, env, the engine log")
	void configured() {
		GenericContainer<?> container = TestcontainersEngineLauncher.container(VLLM, Map.of("HF_TOKEN", "hf_secret_value"));
		assertThat(container.getCommandParts()).containsExactlyElementsOf(VLLM.args());
		assertThat(container.getExposedPorts()).containsExactly(8000);
		assertThat(container.getShmSize()).isEqualTo(17_179_869_184L);
		assertThat(container.getEnvMap()).isEqualTo(Map.of("HF_TOKEN_PATH", "/run/secrets/hf_token"));
		assertThat(container.getLogConsumers()).singleElement().isInstanceOf(TestcontainersEngineLauncher.StartupConsole.class);
	}

	@Test
	@DisplayName("the engine's output reaches the console until it is healthy, then only its log file")
	void consoleUntilHealthy() {
		List<String> console = new ArrayList<>();
		var startup = new TestcontainersEngineLauncher.StartupConsole(frame -> console.add(frame.getUtf8String()), SecretGuard.none());
		startup.accept(new OutputFrame(OutputFrame.OutputType.STDERR, "loading model\n".getBytes(StandardCharsets.UTF_8)));
		startup.healthy();
		startup.accept(new OutputFrame(OutputFrame.OutputType.STDERR, "slot 3 processing\n".getBytes(StandardCharsets.UTF_8)));
		assertThat(console).containsExactly("loading model\n");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.fakbattery.wire.CanaryForms#oneLineForms")
	@DisplayName("a key the engine prints in any form reaches neither its log file nor the console")
	void containerOutputIsRedacted(String name, String expectedForm, UnaryOperator<String> encode) throws IOException {
		SecretGuard guard = CanaryForms.guard(CanaryForms.KEY);
		EngineContainerSpec spec = EngineContainerSpec.from(Configs.vllm("experiments.dir", dir.toString()));
		OutputFrame frame = new OutputFrame(OutputFrame.OutputType.STDOUT, ("auth " + encode.apply(CanaryForms.KEY) + "\n")
				.getBytes(StandardCharsets.UTF_8));
		List<String> console = new ArrayList<>();
		var startup = new TestcontainersEngineLauncher.StartupConsole(printed -> console.add(printed.getUtf8String()), guard);

		startup.accept(frame);
		try (var log = TestcontainersEngineLauncher.LogFile.open(spec, guard)) {
			log.accept(frame);
			assertThat(log.tail()).singleElement().asString().contains("[REDACTED api.key.env");
			assertThat(guard.find(Files.readAllBytes(log.path))).as(name).isEmpty();
			assertThat(Files.readString(log.path)).contains("[REDACTED api.key.env");
		}
		assertThat(console).singleElement().satisfies(line -> assertThat(guard.find(line)).as(name).isEmpty());
	}

	@Test
	@DisplayName("the container's output is redacted of the Hugging Face token handed to it")
	void guardHoldsTheToken() {
		assertThat(TestcontainersEngineLauncher.guard(Map.of("HF_TOKEN", "hf_secret_value")).redact("token hf_secret_value"))
				.isEqualTo("token [REDACTED engine.hf.token.env]");
	}

	@Test
	@DisplayName("the Hugging Face token is a file in the container, never in its environment or configuration text")
	void tokenIsAFile() throws ReflectiveOperationException {
		GenericContainer<?> container = TestcontainersEngineLauncher.container(VLLM,
				Map.of("HF_TOKEN", "hf_secret_value", "OTHER", "kept"));
		assertThat(container.getEnvMap()).containsOnly(Map.entry("OTHER", "kept"), Map.entry("HF_TOKEN_PATH", "/run/secrets/hf_token"))
				.doesNotContainValue("hf_secret_value");
		Map<Transferable, String> copies = copies(container);
		assertThat(copies).hasSize(1).containsValue("/run/secrets/hf_token");
		assertThat(new String(copies.keySet().iterator().next().getBytes(), StandardCharsets.UTF_8)).isEqualTo("hf_secret_value");
		assertThat(container.toString()).doesNotContain("hf_secret_value");
		assertThat(copies(TestcontainersEngineLauncher.container(VLLM, Map.of()))).isEmpty();
	}

	/** Testcontainers keeps what it copies in before the start in a package-private map. */
	@SuppressWarnings("unchecked")
	private static Map<Transferable, String> copies(GenericContainer<?> container) throws ReflectiveOperationException {
		var getter = GenericContainer.class.getDeclaredMethod("getCopyToTransferableContainerPathMap");
		getter.setAccessible(true);
		return (Map<Transferable, String>) getter.invoke(container);
	}

	@Test
	@DisplayName("waits for GET /health == 200 on port 8000 within the startup timeout; labelled with the checkout")
	void waitsForHealth() throws ReflectiveOperationException {
		GenericContainer<?> container = TestcontainersEngineLauncher.container(
				EngineContainerSpec.from(Configs.vllm("engine.startup.timeout.sec", "42")), Map.of());
		var field = GenericContainer.class.getDeclaredField("waitStrategy");
		field.setAccessible(true);
		Object strategy = field.get(container);
		assertThat(strategy).isInstanceOfSatisfying(TestcontainersEngineLauncher.HealthWait.class, wait -> {
			assertThat(wait.path()).isEqualTo("/health");
			assertThat(wait.port()).isEqualTo(8000);
			assertThat(wait.timeout()).isEqualTo(java.time.Duration.ofSeconds(42));
		});
		assertThat(container.getLabels()).containsEntry("dev.fakbattery.harness", TestcontainersEngineLauncher.scope());
	}

	@Test
	@DisplayName("llama.cpp: no GPU requested, no shared memory set, the image's entrypoint kept")
	void llamacppCreateCommand() {
		EngineContainerSpec spec = EngineContainerSpec.from(Configs.of("engine", "llamacpp", "engine.image",
				"fak-battery/llamacpp:0123456789ab", "model", "m", "checkpoint.model", "m.gguf"));
		RecordedCmd cmd = RecordedCmd.create();
		TestcontainersEngineLauncher.customize(spec, cmd.proxy());
		assertThat(cmd.host.getDeviceRequests()).isNull();
		assertThat(cmd.entrypoints).isEmpty();
		assertThat(TestcontainersEngineLauncher.container(spec, Map.of()).getShmSize()).isNull();
	}

	@Test
	@DisplayName("engine.cpuset: the host config's CpusetCpus; unset: none, every CPU")
	void cpusetCreateCommand() {
		RecordedCmd pinned = RecordedCmd.create();
		TestcontainersEngineLauncher.customize(EngineContainerSpec.from(Configs.vllm("engine.cpuset", "2-7,9")), pinned.proxy());
		assertThat(pinned.host.getCpusetCpus()).isEqualTo("2-7,9");
		assertThat(pinned.host.getDeviceRequests()).hasSize(1);
		RecordedCmd free = RecordedCmd.create();
		TestcontainersEngineLauncher.customize(VLLM, free.proxy());
		assertThat(free.host.getCpusetCpus()).isNull();
	}

	@Test
	@DisplayName("vLLM: all GPUs requested, the image's entrypoint kept")
	void vllmCreateCommand() {
		RecordedCmd cmd = RecordedCmd.create();
		TestcontainersEngineLauncher.customize(VLLM, cmd.proxy());
		assertThat(cmd.host.getDeviceRequests()).singleElement().satisfies(request -> {
			assertThat(request.getCount()).isEqualTo(-1);
			assertThat(request.getCapabilities()).isEqualTo(List.of(List.of("gpu")));
		});
		assertThat(cmd.entrypoints).isEmpty();
	}

	@Test
	@DisplayName("SGLang: all GPUs requested, entrypoint python3 -m sglang.launch_server")
	void sglangCreateCommand() {
		RecordedCmd cmd = RecordedCmd.create();
		TestcontainersEngineLauncher.customize(SGLANG, cmd.proxy());
		assertThat(cmd.host.getDeviceRequests()).extracting(DeviceRequest::getCount).containsExactly(-1);
		assertThat(cmd.entrypoints).containsExactly(List.of("python3", "-m", "sglang.launch_server"));
	}

	@Test
	@DisplayName("the exit code of a failed start, from Docker's events: a container's own exit, never the kill that stopped it")
	void exitFromEvents() {
		var exited = new TestcontainersEngineLauncher.ExitWatch();
		exited.event("start", Map.of());
		exited.event("die", Map.of("exitCode", "3", "image", "x"));
		assertThat(exited.code(java.time.Duration.ZERO)).contains("3");
		var killed = new TestcontainersEngineLauncher.ExitWatch();
		killed.event("kill", Map.of("signal", "9"));
		killed.event("die", Map.of("exitCode", "137"));
		assertThat(killed.code(java.time.Duration.ZERO)).isEmpty();
		var silent = new TestcontainersEngineLauncher.ExitWatch();
		assertThat(silent.code(java.time.Duration.ofMillis(20))).isEmpty();
		var noCode = new TestcontainersEngineLauncher.ExitWatch();
		noCode.event("die", Map.of());
		assertThat(noCode.code(java.time.Duration.ZERO)).contains("unknown");
	}

	@Test
	@DisplayName("the base URL: localhost becomes 127.0.0.1, a remote host stays, IPv6 gets brackets")
	void baseUrl() {
		assertThat(TestcontainersEngineLauncher.baseUrl("localhost", 32771)).isEqualTo(URI.create("http://127.0.0.1:32771/v1"));
		assertThat(TestcontainersEngineLauncher.baseUrl("10.0.0.7", 32771)).isEqualTo(URI.create("http://10.0.0.7:32771/v1"));
		assertThat(TestcontainersEngineLauncher.baseUrl("::1", 1)).isEqualTo(URI.create("http://[::1]:1/v1"));
	}

	/** A create command that records what the modifier did to it. */
	private static final class RecordedCmd {

		final HostConfig host = HostConfig.newHostConfig();
		final List<List<String>> entrypoints = new ArrayList<>();
		private CreateContainerCmd proxy;

		static RecordedCmd create() {
			RecordedCmd recorded = new RecordedCmd();
			recorded.proxy = (CreateContainerCmd) Proxy.newProxyInstance(CreateContainerCmd.class.getClassLoader(),
					new Class<?>[]{ CreateContainerCmd.class }, (self, method, args) -> switch (method.getName()) {
						case "getHostConfig" -> recorded.host;
						case "withEntrypoint" -> {
							recorded.entrypoints
									.add(args[0] instanceof String[] words ? List.of(words) : List.copyOf((List<String>) args[0]));
							yield self;
						}
						default -> throw new AssertionError("unexpected call " + method.getName());
					});
			return recorded;
		}

		CreateContainerCmd proxy() {
			return proxy;
		}
	}
}
