package dev.fakbattery.bench.swebench;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.fakbattery.core.Check;

/**
 * Builds a check that must hold for every arm: passed when there is at least one arm and each
 * passes; observed lists each arm's values, {@code raw-vllm grade_rc=0; fak-gateway grade_rc=1}.
 */
final class ArmCheck {

	private ArmCheck() {
	}

	static Check of(String name, String expected, List<ArmRow> arms, Function<ArmRow, String> observe,
			Predicate<ArmRow> ok) {
		if (arms.isEmpty()) {
			return new Check(name, false, expected, "no arms in compare.json");
		}
		String observed = arms.stream().map(a -> a.arm() + " " + observe.apply(a)).collect(Collectors.joining("; "));
		return new Check(name, arms.stream().allMatch(ok), expected, observed);
	}
}
