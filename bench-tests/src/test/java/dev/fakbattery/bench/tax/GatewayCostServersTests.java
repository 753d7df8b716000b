package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the gateway cost bench's servers (cost.servers)")
class GatewayCostServersTests {

	@Test
	@DisplayName("unset: every HTTP front on G1, then the JDK front on ZGC")
	void every() {
		assertThat(GatewayCostBench.variants(Optional.empty())).containsOnlyKeys("jdk", "helidon", "netty", "jdk-zgc");
		assertThat(GatewayCostBench.variants(Optional.empty()).get("jdk-zgc")).containsExactly("-Xmx512m", "-XX:+UseZGC");
	}

	@Test
	@DisplayName("a list keeps its order and its JVM flags")
	void chosen() {
		assertThat(List.copyOf(GatewayCostBench.variants(Optional.of("netty, jdk")).keySet())).containsExactly("netty", "jdk");
	}

	@Test
	@DisplayName("an unknown server names the parameter, the value, the choices and an example")
	void unknown() {
		assertThatIllegalArgumentException().isThrownBy(() -> GatewayCostBench.variants(Optional.of("jdk,tomcat")))
			.withMessage("Unable to parse cost.servers value [jdk,tomcat]: use a comma-separated list of [jdk, helidon, netty, jdk-zgc], "
					+ "e.g. -Dcost.servers=jdk,netty");
	}
}
