package dev.fakbattery.bench.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.RungRecorder;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

@DisplayName("node target: base.url, else the engine container, else pending")
class NodeTargetTests {

	private final FakeLauncher launcher = FakeLauncher.healthy();

	private static RungRecorder run(HarnessConfig config) {
		return new RungRecorder(ArtifactId.PREFLIGHT, config);
	}

	private EngineContainers engines(boolean docker) {
		return EngineContainers.create(() -> docker, launcher, name -> null);
	}

	@Test
	@DisplayName("base.url wins: the container is not started even when engine.image is set")
	void baseUrlWins() {
		RungRecorder run = run(Configs.vllm("base.url", "http://10.0.0.7:8000/v1/"));
		assertThat(NodeTarget.baseUrl(run, engines(true))).contains(URI.create("http://10.0.0.7:8000/v1"));
		assertThat(launcher.started).isEmpty();
		assertThat(run.pendings()).isEmpty();
	}

	@Test
	@DisplayName("engine.image: the container's URL")
	void container() {
		RungRecorder run = run(Configs.vllm());
		assertThat(NodeTarget.baseUrl(run, engines(true))).contains(URI.create("http://127.0.0.1:32770/v1"));
		assertThat(run.pendings()).isEmpty();
	}

	@Test
	@DisplayName("neither: empty, recorded as the pending base.url")
	void pending() {
		RungRecorder run = run(Configs.of("model", "qwen"));
		assertThat(NodeTarget.baseUrl(run, engines(true))).isEmpty();
		assertThat(run.pendings()).containsExactly(new Measurement.Pending("base.url",
				"raw engine base URL is not configured", "set -Dbase.url=http://HOST:8000/v1"));
		assertThat(launcher.started).isEmpty();
	}

	@Test
	@DisplayName("engine.image without Docker outside -Pgpu: the skip goes through, nothing is recorded as pending")
	void skipGoesThrough() {
		RungRecorder run = run(Configs.vllm());
		assertThatThrownBy(() -> NodeTarget.baseUrl(run, engines(false)))
				.isExactlyInstanceOf(TestAbortedException.class)
				.hasMessage(EngineContainersTests.SKIPPED.formatted("default"));
		assertThat(run.pendings()).isEmpty();
	}

	@Test
	@DisplayName("the public entry point with neither set touches no container")
	void publicEntryPoint() {
		RungRecorder run = run(Configs.of());
		assertThat(NodeTarget.baseUrl(run)).isEmpty();
		assertThat(run.pendings()).extracting(Measurement.Pending::name).containsExactly("base.url");
	}
}
