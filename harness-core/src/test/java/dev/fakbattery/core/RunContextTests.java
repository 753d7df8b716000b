package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RunContext: a run id is the start time and a random part, so two builds never share one")
class RunContextTests {

	private static final Instant START = Instant.parse("2026-11-30T20:15:00Z");

	@Test
	@DisplayName("two runs started in the same second get different ids, each starting with the time")
	void randomPart() {
		Set<String> ids = new HashSet<>();
		for (int i = 0; i < 50; i++) {
			String id = RunContext.newRunId(START);
			assertThat(id).matches("20261130T201500Z-[0-9a-f]{6}");
			ids.add(id);
		}
		assertThat(ids).hasSizeGreaterThan(45);
	}

	@Test
	@DisplayName("the start parses from an id with a random part; a JVM without a build-given id makes its own")
	void startedAt() {
		assertThat(RunContext.startedAt("20261130T201500Z-3fa9c2")).isEqualTo(START);
		assertThat(RunContext.startedAt("20261130T201500Z")).isEqualTo(START);
		RunContext given = RunContext.of(config(Map.of(HarnessConstants.RUN_ID, "20261130T201500Z-3fa9c2")));
		assertThat(given.runId()).isEqualTo("20261130T201500Z-3fa9c2");
		assertThat(given.startedAt()).isEqualTo(START);
		assertThat(RunContext.of(config(Map.of())).runId()).matches("\\d{8}T\\d{6}Z-[0-9a-f]{6}-local");
	}

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}
}
