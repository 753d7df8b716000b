package dev.fakbattery.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.function.Predicate;

import dev.fakbattery.api.Rung;
import dev.fakbattery.api.WireRuleReport;
import dev.fakbattery.core.SurefireSelection;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The measuring profiles run this module's test classes tagged {@value Rung#TAG} ({@code harness.groups}): the wire and
 * fault rungs, and the kit's rule classes whose results the battery report shows ({@link WireRuleReport}) where
 * {@code -Dtest=} names them (the pom leaves them to the wire rung otherwise, which reports its own run of them), never
 * a self-test against broken gateways, nor the fault rules' class the fault rung runs inside itself.
 */
@DisplayName("the measuring profiles' classes here: the rungs and the kit against the gateway under test, no self-test")
class MeasuringProfileClassesTests {

	@Test
	@DisplayName("harness.groups=battery takes every *RungTests and @WireRuleReport class and nothing else")
	void batteryTagTakesTheRungsAndTheKit() {
		Set<String> all = SurefireSelection.all(getClass());
		Predicate<String> battery = name -> name.endsWith("RungTests") || AnnotationSupport.isAnnotated(load(name), WireRuleReport.class);
		assertThat(SurefireSelection.tagged(getClass(), Rung.TAG)).as("the classes tagged %s among %d", Rung.TAG, all.size())
				.containsExactlyInAnyOrderElementsOf(all.stream().filter(battery).toList())
				.contains("dev.fakbattery.conformance.wire.WireRungTests", "dev.fakbattery.conformance.fault.FaultRungTests",
						"dev.fakbattery.conformance.wire.GatewayUnderTestWireTests");
		assertThat(all).as("self-tests the measuring profiles leave to ./mvnw verify, and the class the fault rung runs")
				.contains("dev.fakbattery.conformance.wire.BrokenGatewayTests", "dev.fakbattery.conformance.fault.FaultRungSelfTests",
						"dev.fakbattery.conformance.fault.GatewayUnderTestFaultTests");
	}

	private static Class<?> load(String name) {
		try {
			return Class.forName(name);
		}
		catch (ClassNotFoundException e) {
			throw new IllegalStateException(e);
		}
	}
}
