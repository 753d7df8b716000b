package dev.fakbattery.bench.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.opentest4j.TestAbortedException;

@DisplayName("engine containers: one per JVM, three outcomes never confused")
class EngineContainersTests {

	static final String SKIPPED = "engine.image is set but Docker is not available: skipped under profile %s (-Pgpu fails "
			+ "instead). Fix: start a Docker engine with the NVIDIA container toolkit, or unset -Dengine.image and pass "
			+ "-Dbase.url=http://HOST:8000/v1.";

	static final String GPU_FAILS = "engine.image is set but no Docker engine is available (profile gpu fails closed). "
			+ "Fix: start the Docker daemon with the NVIDIA container toolkit where Testcontainers finds it (DOCKER_HOST or "
			+ "/var/run/docker.sock), or unset -Dengine.image and pass -Dbase.url=http://HOST:8000/v1 of an engine you started.";

	private static final Function<String, String> NO_ENV = name -> null;

	private final AtomicInteger dockerAsked = new AtomicInteger();
	private final FakeLauncher launcher = FakeLauncher.healthy();

	private DockerCheck docker(boolean available) {
		return () -> {
			dockerAsked.incrementAndGet();
			return available;
		};
	}

	private EngineContainers engines(boolean dockerAvailable) {
		return EngineContainers.create(docker(dockerAvailable), launcher, NO_ENV);
	}

	@Test
	@DisplayName("engine.image unset: empty, neither Docker nor the launcher is asked")
	void unset() {
		assertThat(engines(true).engineUrl(Configs.of("model", "qwen", "harness.profile", "gpu"))).isEmpty();
		assertThat(dockerAsked).hasValue(0);
		assertThat(launcher.started).isEmpty();
	}

	@Nested
	@DisplayName("no Docker engine")
	class NoDocker {

		@ParameterizedTest
		@ValueSource(strings = { "default", "battery" })
		@DisplayName("outside -Pgpu: a skip with its reason")
		void skipped(String profile) {
			assertThatThrownBy(() -> engines(false).engineUrl(Configs.vllm("harness.profile", profile)))
					.isExactlyInstanceOf(TestAbortedException.class)
					.hasMessage(SKIPPED.formatted(profile));
			assertThat(launcher.started).isEmpty();
		}

		@Test
		@DisplayName("under -Pgpu: a failure (fails closed)")
		void gpuFails() {
			assertThatThrownBy(() -> engines(false).engineUrl(Configs.vllm("harness.profile", "gpu")))
					.isExactlyInstanceOf(EngineUnavailableError.class)
					.isInstanceOf(AssertionError.class)
					.hasMessage(GPU_FAILS);
			assertThat(launcher.started).isEmpty();
		}

		@Test
		@DisplayName("no profile set reads as default: a skip")
		void noProfile() {
			assertThatThrownBy(() -> engines(false).engineUrl(Configs.vllm()))
					.isExactlyInstanceOf(TestAbortedException.class)
					.hasMessage(SKIPPED.formatted("default"));
		}

		@Test
		@DisplayName("a misconfiguration wins over the skip, and Docker is not asked")
		void misconfigurationFirst() {
			assertThatThrownBy(() -> engines(false).engineUrl(Configs.vllm("engine.tp", "-1")))
					.isExactlyInstanceOf(ConfigurationException.class)
					.hasMessageStartingWith("Unable to parse engine.tp value [-1]");
			assertThatThrownBy(() -> engines(false).engineUrl(Configs.vllm("engine.hf.token.env", "MY_HF")))
					.isExactlyInstanceOf(ConfigurationException.class)
					.hasMessageStartingWith("engine.hf.token.env names the environment variable MY_HF, which is not set");
			assertThat(dockerAsked).hasValue(0);
		}

		@Test
		@DisplayName("this machine, through Testcontainers' own check: a skip with the reason, not an error")
		void realCheckOnThisMachine() {
			DockerCheck real = DockerCheck.testcontainers();
			Assumptions.assumeFalse(real.available(), "Docker is available here; this test covers a machine without Docker");
			EngineContainers engines = EngineContainers.create(real, launcher, NO_ENV);
			Throwable outcome = catchThrowable(() -> engines.engineUrl(Configs.vllm("harness.profile", "default")));
			assertThat(outcome).isExactlyInstanceOf(TestAbortedException.class).hasMessage(SKIPPED.formatted("default"));
			assertThat(launcher.started).isEmpty();
		}
	}

	@Nested
	@DisplayName("with Docker")
	class WithDocker {

		@Test
		@DisplayName("starts once, every later call gets the same URL")
		void startsOnce() {
			EngineContainers engines = engines(true);
			URI first = engines.engineUrl(Configs.vllm()).orElseThrow();
			URI second = engines.engineUrl(Configs.vllm()).orElseThrow();
			assertThat(first).isEqualTo(URI.create("http://127.0.0.1:32770/v1")).isEqualTo(second);
			assertThat(launcher.started).containsExactly(EngineContainerSpec.from(Configs.vllm()));
			assertThat(dockerAsked).hasValue(1);
		}

		@Test
		@DisplayName("the token is read from the named variable and handed to the launcher only")
		void tokenToLauncher() {
			EngineContainers engines = EngineContainers.create(docker(true), launcher, Map.of("MY_HF", "hf_secret")::get);
			engines.engineUrl(Configs.vllm("engine.hf.token.env", "MY_HF"));
			assertThat(launcher.envs).containsExactly(Map.of("HF_TOKEN", "hf_secret"));
			assertThat(launcher.started.get(0).toString()).doesNotContain("hf_secret");
		}

		@Test
		@DisplayName("another configuration in the same JVM is a misconfiguration")
		void secondConfiguration() {
			EngineContainers engines = engines(true);
			engines.engineUrl(Configs.vllm());
			assertThatThrownBy(() -> engines.engineUrl(Configs.vllm("engine.tp", "2")))
					.isExactlyInstanceOf(ConfigurationException.class)
					.hasMessage("engine.image: this JVM's engine container is [" + EngineContainerSpec.from(Configs.vllm()).describe()
							+ "] but this test asks for [" + EngineContainerSpec.from(Configs.vllm("engine.tp", "2")).describe()
							+ "]. One engine container per JVM. Fix: use one engine configuration per Maven run.");
			assertThat(launcher.started).hasSize(1);
		}

		@Test
		@DisplayName("close() stops it; the next call starts a new one")
		void closeAndRestart() {
			EngineContainers engines = engines(true);
			engines.engineUrl(Configs.vllm());
			engines.close();
			engines.close();
			assertThat(launcher.engines.get(0).closed).isEqualTo(1);
			assertThat(engines.engineUrl(Configs.vllm())).contains(URI.create("http://127.0.0.1:32771/v1"));
			assertThat(launcher.started).hasSize(2);
		}

		@Test
		@DisplayName("the shutdown hook stops it; later calls fail instead of using a stopped engine")
		void shutdown() {
			EngineContainers engines = engines(true);
			engines.engineUrl(Configs.vllm());
			engines.shutdown();
			assertThat(launcher.engines.get(0).closed).isEqualTo(1);
			assertThatThrownBy(() -> engines.engineUrl(Configs.vllm()))
					.isExactlyInstanceOf(EngineUnavailableError.class)
					.hasMessage("engine container was stopped: the JVM is shutting down");
		}
	}

	@Nested
	@DisplayName("a failed start")
	class FailedStart {

		private final FakeLauncher broken = FakeLauncher.failing(new IllegalStateException("Container startup failed",
				new RuntimeException("Timed out waiting for URL to be accessible")));

		private final String message = "engine container did not start or become healthy: "
				+ EngineContainerSpec.from(Configs.vllm()).describe() + ": IllegalStateException (Container startup failed), "
				+ "root cause RuntimeException (Timed out waiting for URL to be accessible). Fix: read the engine log, "
				+ "check the image tag, the NVIDIA container toolkit (GPU engines) and the model, or raise -Dengine.startup.timeout.sec "
				+ "(now 1800).";

		@ParameterizedTest
		@ValueSource(strings = { "default", "gpu" })
		@DisplayName("is a failure in every profile, with the cause")
		void fails(String profile) {
			EngineContainers engines = EngineContainers.create(docker(true), broken, NO_ENV);
			assertThatThrownBy(() -> engines.engineUrl(Configs.vllm("harness.profile", profile)))
					.isExactlyInstanceOf(EngineUnavailableError.class)
					.hasMessage(message)
					.hasCauseInstanceOf(IllegalStateException.class);
		}

		@Test
		@DisplayName("is remembered: later rungs fail at once, without a second start")
		void remembered() {
			EngineContainers engines = EngineContainers.create(docker(true), broken, NO_ENV);
			HarnessConfig config = Configs.vllm();
			assertThatThrownBy(() -> engines.engineUrl(config)).isInstanceOf(EngineUnavailableError.class);
			assertThatThrownBy(() -> engines.engineUrl(config))
					.isExactlyInstanceOf(EngineUnavailableError.class)
					.hasMessage(message + " (first attempt in this JVM; not retried)");
			assertThat(broken.started).hasSize(1);
			assertThat(dockerAsked).hasValue(1);
		}

		@Test
		@DisplayName("close() forgets it: the next call tries again")
		void closeForgets() {
			EngineContainers engines = EngineContainers.create(docker(true), broken, NO_ENV);
			assertThatThrownBy(() -> engines.engineUrl(Configs.vllm())).isInstanceOf(EngineUnavailableError.class);
			engines.close();
			assertThatThrownBy(() -> engines.engineUrl(Configs.vllm())).hasMessage(message);
			assertThat(broken.started).hasSize(2);
		}
	}

	@Test
	@DisplayName("shared() is one instance per JVM")
	void sharedIsSingleton() {
		assertThat(EngineContainers.shared()).isSameAs(EngineContainers.shared());
	}
}
