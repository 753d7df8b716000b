package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.fakbattery.conformance.wire.NullGatewayTests.NullFaultTestCase;
import dev.fakbattery.conformance.wire.NullGatewayTests.NullWireTestCase;
import dev.fakbattery.conformance.wire.NullGateways.Kind;
import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The kit's rule runs carry their rule id, engine and mode in their display names, which the JUnit XML of a Maven build
 * (surefire, failsafe) and of the standalone jar name each test case by ({@link KitTestNames}). Each kit runs against a
 * gateway that answers 500 (every run not judged after one probe per dialect: the names, not the verdicts, are the
 * point). {@code SurefireXmlNamesIT} reads this class's XML of the same build: a parameterized test there is named by its
 * method's display name and its own, as a rule run is.
 */
@Tag("wire")
@DisplayName("the kit's test names: each rule run named by its rule id, engine and mode")
@Execution(ExecutionMode.CONCURRENT)
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class KitTestNamesTests {

	static Stream<Arguments> kits() {
		return Stream.of(Arguments.of(Named.of("wire kit", NullWireTestCase.class), 112),
				Arguments.of(Named.of("fault kit", NullFaultTestCase.class), 28),
				Arguments.of(Named.of("client kit", NullGatewayTests.NullClientTestCase.class), 16));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("kits")
	@DisplayName("every rule run is named by its rule and its target")
	void everyRuleRunNamed(Class<?> kit, int runs) {
		Events tests = NullGatewayTests.run(kit, Kind.ANSWERS_500, false);

		assertThat(tests.finished().count() + tests.skipped().count()).isEqualTo(runs);
		assertThat(KitTestNames.problems(tests)).isEmpty();
	}

	@Test
	@DisplayName("a class whose rule runs are named by method and index, or by argument names, is rejected, each run named")
	void misnamedRunsRejected() {
		Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(MisnamedTestCase.class)).execute().testEvents();

		assertThat(KitTestNames.problems(tests)).containsExactlyInAnyOrder(
				"rule run required_W01_modelAlias [vllm stream]: expected its rule's display name to begin with W01, observed "
						+ "\"required_W01_modelAlias(Dialect, String)\"",
				"rule run required_W02_allowForwarded [[1] engine = vllm, mode = \"stream\"]: expected its display name to be the "
						+ "engine and mode (vllm stream), observed \"[1] engine = vllm, mode = \"stream\"\"",
				"rule run required_W03_denyDropped [vllm stream]: expected its rule's display name to begin with W03, observed "
						+ "\"W01 model alias kept\"",
				"rule run notARule [vllm stream]: expected a kit rule method (required_W01_...), observed a method that names no rule of the kit");
	}

	// -------------------------------------------------------------------------

	static class MisnamedTestCase {

		static Stream<Arguments> targets() {
			return Stream.of(Arguments.of(Named.of("vllm", Dialect.VLLM), Named.of("stream", "stream")));
		}

		static Stream<Arguments> unnamed() {
			return Stream.of(Arguments.of(Dialect.VLLM, "stream"));
		}

		@ParameterizedTest(name = "{0} {1}")
		@MethodSource("targets")
		void required_W01_modelAlias(Dialect engine, String mode) {
		}

		@ParameterizedTest
		@MethodSource("unnamed")
		@DisplayName("W02 allowed call forwarded")
		void required_W02_allowForwarded(Dialect engine, String mode) {
		}

		@ParameterizedTest(name = "{0} {1}")
		@MethodSource("targets")
		@DisplayName("W01 model alias kept")
		void required_W03_denyDropped(Dialect engine, String mode) {
		}

		@ParameterizedTest(name = "{0} {1}")
		@MethodSource("targets")
		@DisplayName("W04 transformed")
		void notARule(Dialect engine, String mode) {
		}
	}
}
