package dev.fakbattery.bench.failclosed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.PendingMeasurementError;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs the real bench rungs the way {@code -Pgpu} does with nothing configured: every rung must
 * fail with PENDING_MEASUREMENT naming the property to set, none may pass or skip.
 */
@DisplayName("-Pgpu with nothing configured fails closed on every bench rung")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class GpuProfileFailsClosedTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("each rung fails naming exactly what to set")
	void everyRungFailsNamingItsProperty() {
		Events tests = EngineTestKit.engine("junit-jupiter")
				.selectors(selectPackage("dev.fakbattery.bench"))
				.configurationParameters(nothingConfigured(dir))
				.filters(org.junit.platform.launcher.TagFilter.includeTags("gpu"))
				.execute()
				.testEvents();
		List<Event> finished = tests.finished()
				.list()
				.stream()
				.filter(e -> !e.getTestDescriptor().getUniqueId().toString().contains("EngineHeadToHeadTests"))
				.toList();
		assertThat(finished).hasSize(7);
		assertThat(tests.succeeded().count()).isZero();
		// the only skip allowed: the optional engine head-to-head when engine.compare names no engines
		assertThat(tests.aborted().list()).singleElement()
				.satisfies(e -> assertThat(e.getPayload(TestExecutionResult.class)
						.flatMap(TestExecutionResult::getThrowable)
						.map(Throwable::getMessage)
						.orElse(""))
						.isEqualTo("Assumption failed: engine.compare is not set: no engines to compare (optional rung)"));
		for (Event event : finished) {
			TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
			Throwable failure = result.getThrowable().orElseThrow();
			assertThat(failure).as(event.getTestDescriptor().getDisplayName()).isInstanceOf(PendingMeasurementError.class);
			assertThat(failure.getMessage()).startsWith("PENDING_MEASUREMENT: ");
			String name = event.getTestDescriptor().getDisplayName();
			if (!name.contains("floor")) {
				assertThat(failure.getMessage()).as(name).contains("(set -Dbase.url=http://HOST:8000/v1)");
			}
			else {
				assertThat(failure.getMessage()).contains("-Dfloors.dir=DIR");
			}
		}
	}

	static Map<String, String> nothingConfigured(Path dir) {
		return HarnessConfig.hermeticParameters(Map.of(HarnessConstants.ALLOW_PENDING, "false", HarnessConstants.PROFILE, "gpu",
				HarnessConstants.EXPERIMENTS_DIR, dir.toString()));
	}
}
