package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** Running the kit against a broken gateway and reading which rules failed, and how. */
public final class SelfTest {

	static final List<String> BOTH = List.of("non-stream", "stream");

	static final List<String> STREAM = List.of("stream");

	static final List<String> NON_STREAM = List.of("non-stream");

	private SelfTest() {
	}

	/** The kit on {@code testCase}, its timing rules left out (they wait on paced upstreams), hermetic configuration. */
	static Events run(Class<?> testCase) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(testCase))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of()))
				.filters(TagFilter.excludeTags(WireVerification.TIMING))
				.execute()
				.testEvents();
	}

	/**
	 * The client rules on {@code testCase}, hermetic but for {@code kit.node.dir} (the JavaScript clients the build
	 * installed into this module's target/node-clients) and the outer build's {@code kit.node.clients}
	 * ({@link #nodeClients}).
	 */
	static Events runClients(Class<?> testCase) {
		return runClients(testCase, nodeClients());
	}

	/** The client rules on {@code testCase}, as {@link #runClients(Class)}, with {@code kit.node.clients=use}. */
	static Events runClients(Class<?> testCase, String use) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(testCase))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(ConfigKeys.KIT_NODE_DIR.name(), NODE_DIR,
						ConfigKeys.KIT_NODE_CLIENTS.name(), use)))
				.execute()
				.testEvents();
	}

	/** Where the build installed the JavaScript clients. */
	static final String NODE_DIR = Path.of("target", "node-clients").toAbsolutePath().toString();

	/**
	 * The outer build's {@code kit.node.clients} (system property), else {@code auto}: {@code -Dkit.node.clients=off}
	 * runs the client self-tests as where {@code node} is absent.
	 */
	static String nodeClients() {
		String use = System.getProperty(ConfigKeys.KIT_NODE_CLIENTS.name(), "");
		return use.isBlank() ? "auto" : use;
	}

	/** Why the JavaScript clients cannot run in a client self-test ({@link #runClients(Class)}); empty when they can. */
	static Optional<String> nodeMissing() {
		Map<String, String> values = Map.of(ConfigKeys.KIT_NODE_DIR.name(), NODE_DIR, ConfigKeys.KIT_NODE_CLIENTS.name(), nodeClients());
		return new NodeClients(HarnessConfig.of(name -> Optional.ofNullable(values.get(name)))).missing();
	}

	/** The kit on {@code testCase}, every rule. */
	static Events runWithTiming(Class<?> testCase) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(testCase))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of()))
				.execute()
				.testEvents();
	}

	/**
	 * The timing rules (tag {@value WireVerification#TIMING}) of {@code testCase} that failed in {@code first} and fail
	 * again in each of up to {@code reruns} more runs of those rule runs alone (the same rule on the same target, not the
	 * timing rules that passed: W26's pauses are not waited out again); each rerun and its reason
	 * (the failures it follows) go to {@code log}. For a gateway that must pass them: a loaded machine can hold a
	 * faithful hop's paced deltas in one run (each W14 already tries 5 streams), a gateway that holds them does so in
	 * every run.
	 */
	static Set<String> timingFailuresAfterReruns(Class<?> testCase, Events first, int reruns, Consumer<String> log) {
		return failuresAfterReruns(first, reruns, SelfTest::timing, "the timing rules",
				selectors -> EngineTestKit.engine("junit-jupiter")
						.selectors(selectors)
						.configurationParameters(HarnessConfig.hermeticParameters(Map.of()))
						.execute()
						.testEvents(),
				log);
	}

	/**
	 * The rule runs that failed in {@code first}, all of them admitted by {@code rerunnable} (any other failure fails at
	 * once), that fail again in each of up to {@code reruns} more runs of those rule runs alone ({@code rerun} runs the
	 * selected invocations as the first run did); each rerun and its reason (the failures it follows) go to
	 * {@code log}. Only for a control that must pass (a faithful hop, a faithful pipe) on a rule whose margin a loaded
	 * machine can take from one run; a gateway that breaks the rule breaks it in every run, and the broken gateways'
	 * self-tests prove the reruns cannot hide that.
	 */
	public static Set<String> failuresAfterReruns(Events first, int reruns, Predicate<Event> rerunnable, String what,
			Function<DiscoverySelector[], Events> rerun, Consumer<String> log) {
		Set<String> failing = new TreeSet<>();
		Set<String> other = new TreeSet<>();
		first.failed().stream().forEach(e -> (rerunnable.test(e) ? failing : other).add(label(e)));
		assertThat(other).as("rules that failed other than %s (never rerun)", what).isEmpty();
		for (int run = 1; run <= reruns && !failing.isEmpty(); run++) {
			log.accept("rerun " + run + " of at most " + reruns + " of " + what + ", after " + failing + " failed: "
					+ messages(first.failed().stream().filter(e -> failing.contains(label(e))).toList()));
			Events again = rerun.apply(first.failed()
					.stream()
					.filter(e -> failing.contains(label(e)))
					.map(e -> selectUniqueId(e.getTestDescriptor().getUniqueId()))
					.toArray(DiscoverySelector[]::new));
			failing.retainAll(failedRules(again));
			first = again;
		}
		return failing;
	}

	private static boolean timing(Event event) {
		Optional<TestDescriptor> descriptor = Optional.of(event.getTestDescriptor());
		while (descriptor.isPresent()) {
			if (descriptor.get().getTags().contains(TestTag.create(WireVerification.TIMING))) {
				return true;
			}
			descriptor = descriptor.get().getParent();
		}
		return false;
	}

	private static List<String> messages(List<Event> failed) {
		return failed.stream()
				.map(e -> e.getPayload(TestExecutionResult.class)
						.flatMap(TestExecutionResult::getThrowable)
						.map(Throwable::getMessage)
						.orElse("?"))
				.toList();
	}

	/**
	 * Failed invocations as {@code W03 [vllm stream]}: the rule runs that ended {@link RuleOutcome#FAIL}, not the ones
	 * failed as PENDING_MEASUREMENT where pending is not allowed (nothing was judged there).
	 */
	static Set<String> failedRules(Events tests) {
		Set<String> failed = new TreeSet<>();
		tests.failed()
				.stream()
				.filter(event -> event.getPayload(TestExecutionResult.class).map(RuleOutcome::of).orElseThrow() == RuleOutcome.FAIL)
				.forEach(event -> failed.add(label(event)));
		return failed;
	}

	/**
	 * Asserts that exactly {@code expected} failed; on a mismatch the description lists every failure message, so an
	 * unexpected failure says why.
	 */
	public static void assertFailed(Events tests, Set<String> expected) {
		assertThat(failedRules(tests)).as(() -> "failures:\n" + String.join("\n", tests.failed()
				.stream()
				.map(e -> e.getPayload(TestExecutionResult.class)
						.flatMap(TestExecutionResult::getThrowable)
						.map(Throwable::getMessage)
						.orElse("?"))
				.toList())).containsExactlyInAnyOrderElementsOf(expected);
	}

	/** The failure message of one rule on one target. */
	public static String message(Events tests, String rule, String target) {
		return tests.failed()
				.stream()
				.filter(e -> label(e).equals(rule + " [" + target + "]"))
				.findFirst()
				.flatMap(e -> e.getPayload(TestExecutionResult.class))
				.flatMap(TestExecutionResult::getThrowable)
				.map(Throwable::getMessage)
				.orElse("<" + rule + " [" + target + "] did not fail>");
	}

	public static String label(Event event) {
		TestDescriptor invocation = event.getTestDescriptor();
		String rule = invocation.getParent().map(TestDescriptor::getDisplayName).orElse("?").split(" ")[0];
		return rule + " [" + invocation.getDisplayName() + "]";
	}

	/** {@code rules} on every engine in {@code modes}, as labels. */
	static Set<String> expand(List<String> rules, List<String> modes) {
		Set<String> labels = new TreeSet<>();
		rules.forEach(r -> WireConformanceKit.KIT_DIALECTS.forEach(e -> modes.forEach(m -> labels.add(r + " [" + e + " " + m + "]"))));
		return labels;
	}

	/** The union of label sets. */
	@SafeVarargs
	static Set<String> union(Set<String>... sets) {
		Set<String> all = new TreeSet<>();
		Arrays.stream(sets).forEach(all::addAll);
		return all;
	}
}
