package dev.fakbattery.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("executor.json: the run, the build command, its place in the index, the CI build when one says")
class ExecutorTests {

	@TempDir
	Path results;

	@Test
	@DisplayName("names the run and the command; buildOrder is the run's place in the index")
	void written() throws Exception {
		JsonNode executor = Json.MAPPER.readTree(Executor.write(results, "20261130T201345Z", 2, "./mvnw -B verify -Pbattery",
				"fak-battery: SIMULATED, 0/9 required artifacts passed on a real target (run 20261130T201345Z)", name -> null).toFile());
		assertThat(executor.path("buildName").asText()).isEqualTo("run 20261130T201345Z: ./mvnw -B verify -Pbattery");
		assertThat(executor.path("buildOrder").asInt()).isEqualTo(2);
		assertThat(executor.has("buildUrl")).isFalse();
		assertThat(executor.path("reportName").asText()).isEqualTo("fak-battery: SIMULATED, 0/9 required artifacts passed on a real target "
				+ "(run 20261130T201345Z)");
	}

	@Test
	@DisplayName("the build URL of Jenkins or GitHub Actions; none when only part of GitHub's is set")
	void buildUrl() {
		assertThat(Executor.buildUrl(Map.of("BUILD_URL", "https://ci/job/7/")::get)).hasValue("https://ci/job/7/");
		assertThat(Executor
				.buildUrl(Map.of("GITHUB_SERVER_URL", "https://github.com", "GITHUB_REPOSITORY", "o/r", "GITHUB_RUN_ID", "42")::get))
				.hasValue("https://github.com/o/r/actions/runs/42");
		assertThat(Executor.buildUrl(Map.of("GITHUB_SERVER_URL", "https://github.com")::get)).isEmpty();
	}
}
