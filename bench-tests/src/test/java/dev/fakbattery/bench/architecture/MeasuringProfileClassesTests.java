package dev.fakbattery.bench.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import dev.fakbattery.api.Rung;
import dev.fakbattery.core.SurefireSelection;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The measuring profiles run this module's test classes tagged {@value Rung#TAG} ({@code harness.groups}): every class
 * of a rung (a composed {@code @...Rung} annotation carries the tag), never the rungs' self-tests, the pipeline smoke
 * or the canary battery, which {@code ./mvnw verify} runs.
 */
@DisplayName("the measuring profiles' classes here: every rung, no self-test")
class MeasuringProfileClassesTests {

	@Test
	@DisplayName("harness.groups=battery takes every *RungTests class and no self-test, smoke or canary")
	void batteryTagTakesTheRungs() {
		Set<String> all = SurefireSelection.all(getClass());
		Set<String> battery = SurefireSelection.tagged(getClass(), Rung.TAG);
		assertThat(battery).as("the classes tagged %s among %d", Rung.TAG, all.size())
				.containsAll(all.stream().filter(name -> name.endsWith("RungTests")).toList())
				.contains("dev.fakbattery.bench.tax.TaxRungTests", "dev.fakbattery.bench.contract.ContractRungTests")
				.noneMatch(name -> name.endsWith("SelfTests") || name.endsWith("SmokeTests") || name.contains(".Broken"))
				.doesNotContain("dev.fakbattery.bench.canary.CanaryLeakTests", getClass().getName());
		assertThat(all).as("what ./mvnw verify runs besides")
				.contains("dev.fakbattery.bench.tax.TaxRungSelfTests", "dev.fakbattery.bench.tax.TaxPipelineSmokeTests",
						"dev.fakbattery.bench.canary.CanaryLeakTests");
	}
}
