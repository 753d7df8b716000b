package dev.fakbattery.conformance.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.fakbattery.conformance.rules.KitRule;
import dev.fakbattery.conformance.rules.KitRules;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * What names a rule run in the JUnit XML, under Maven and in the standalone jar: the display name of its rule (the
 * test method's, {@code W01 model alias ...}) and its own ({@code vllm stream}). Surefire's XML joins the two
 * ({@code W01 model alias ... vllm stream}, {@code usePhrasedTestCaseMethodName} in the root pom), the standalone jar's
 * puts the target in brackets ({@code W01 model alias ... [vllm stream]}, {@code RuleTree}); each carries the rule id,
 * the engine and the mode only where these two display names do.
 */
final class KitTestNames {

	/** A run's own display name: the engine dialect and the mode of its arguments. */
	static final Pattern TARGET = Pattern.compile("(vllm|sglang|llamacpp) (non-stream|stream)");

	private KitTestNames() {
	}

	/**
	 * Each rule run of {@code tests} (finished or skipped) whose names do not carry its rule, engine and mode: its rule's
	 * display name must begin with the id of the rule its method runs ({@code required_W01_modelAlias}: W01), and its own
	 * must be the engine and mode ({@code vllm stream}). Each problem names the run, what was expected and what was found.
	 */
	static List<String> problems(Events tests) {
		List<String> problems = new ArrayList<>();
		for (Event event : Stream.concat(tests.finished().stream(), tests.skipped().stream()).toList()) {
			TestDescriptor run = event.getTestDescriptor();
			String method = run.getSource().filter(MethodSource.class::isInstance).map(s -> ((MethodSource) s).getMethodName()).orElse("?");
			String rule = run.getParent().map(TestDescriptor::getDisplayName).orElse("");
			String target = run.getDisplayName();
			String subject = "rule run " + method + " [" + target + "]";
			Optional<KitRule> ran = KitRules.byMethod(method);
			if (ran.isEmpty()) {
				problems.add(subject + ": expected a kit rule method (required_W01_...), observed a method that names no rule of the kit");
				continue;
			}
			if (!rule.startsWith(ran.get().id() + " ")) {
				problems.add(
						subject + ": expected its rule's display name to begin with " + ran.get().id() + ", observed \"" + rule + "\"");
			}
			if (!TARGET.matcher(target).matches()) {
				problems.add(subject + ": expected its display name to be the engine and mode (vllm stream), observed \"" + target + "\"");
			}
		}
		return problems;
	}
}
