package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the gateway cost bench's servers (cost.servers)")
class GatewayCostServersTests {

	@Test
	@DisplayName("unset: every HTTP front on G1, then the JDK front on ZGC, then the floor")
	void every() {
		assertThat(List.copyOf(GatewayCostBench.variants(Optional.empty(), false).keySet()))
				.containsExactly("jdk", "helidon", "netty", "jdk-zgc", "netty-floor");
		assertThat(GatewayCostBench.variants(Optional.empty(), false).get("jdk-zgc")).containsExactly("-Xmx512m", "-XX:+UseZGC");
	}

	@Test
	@DisplayName("a list keeps its order and its JVM flags")
	void chosen() {
		assertThat(List.copyOf(GatewayCostBench.variants(Optional.of("netty, jdk"), false).keySet())).containsExactly("netty", "jdk");
	}

	@Test
	@DisplayName("the faster server is the valid front with the lowest added p99, never the floor, cmd or an invalid one")
	void faster() {
		ArrayNode rows = JsonNodeFactory.instance.arrayNode();
		rows.addObject().put("server", "jdk").put("valid", true).put("added_p99_ms", 2.5).put("floor", false);
		rows.addObject().put("server", "netty").put("valid", true).put("added_p99_ms", 1.5).put("floor", false);
		rows.addObject().put("server", "helidon").put("valid", false).put("added_p99_ms", 0.5).put("floor", false);
		rows.addObject().put("server", "netty-floor").put("valid", true).put("added_p99_ms", 0.2).put("floor", true);
		rows.addObject().put("server", "cmd").put("valid", true).put("added_p99_ms", 0.1).put("floor", false);

		assertThat(GatewayCostBench.faster(rows)).isEqualTo("netty");
		rows.remove(1);
		rows.remove(0);
		assertThat(GatewayCostBench.faster(rows)).isNull();
	}

	@Test
	@DisplayName("with gateway.cmd set, cmd is measured too, last by default, with no JVM flags; named without it, the fix is named")
	void command() {
		assertThat(List.copyOf(GatewayCostBench.variants(Optional.empty(), true).keySet()))
				.containsExactly("jdk", "helidon", "netty", "jdk-zgc", "netty-floor", "cmd");
		assertThat(GatewayCostBench.variants(Optional.of("cmd,netty-floor"), true)).containsExactly(
				Map.entry("cmd", List.of()), Map.entry("netty-floor", List.of("-Xmx512m")));
		assertThatIllegalArgumentException().isThrownBy(() -> GatewayCostBench.variants(Optional.of("jdk,cmd"), false))
				.withMessage("cost.servers names cmd but gateway.cmd is unset: give the gateway's command template, "
						+ "e.g. -Dgateway.cmd='my-gateway --port {port} --upstream {upstream}'");
	}

	@Test
	@DisplayName("gateway.cmd in the reproduce command: a path under the repository as $PWD, anything else as given")
	void commandArgument() {
		Path root = Path.of("/work/repo");
		assertThat(GatewayCostBench.commandArgument("/work/repo/tools/nginx-floor/nginx-floor.sh {port} {upstream}", root))
				.isEqualTo(" -Dgateway.cmd=\"$PWD/tools/nginx-floor/nginx-floor.sh {port} {upstream}\"");
		assertThat(GatewayCostBench.commandArgument("fak serve --addr 127.0.0.1:{port} --base-url {upstream}", root))
				.isEqualTo(" -Dgateway.cmd='fak serve --addr 127.0.0.1:{port} --base-url {upstream}'");
		assertThat(GatewayCostBench.commandArgument("/work/repo/gw --key $KEY {port}", root))
				.isEqualTo(" -Dgateway.cmd='/work/repo/gw --key $KEY {port}'");
	}

	@Test
	@DisplayName("a placement prefix is split at spaces, written back into the reproduce command, and nothing when unset")
	void prefixes() {
		HarnessConfig config = HarnessConfig
				.of(name -> Optional.ofNullable(Map.of(HarnessConstants.COST_ENGINE_PREFIX, " taskset  -c 1 ").get(name)));

		List<String> engine = GatewayCostBench.prefix(config, HarnessConstants.COST_ENGINE_PREFIX);
		assertThat(engine).containsExactly("taskset", "-c", "1");
		assertThat(GatewayCostBench.prefixArgument(HarnessConstants.COST_ENGINE_PREFIX, engine))
				.isEqualTo(" -Dcost.engine.prefix='taskset -c 1'");
		List<String> gateway = GatewayCostBench.prefix(config, HarnessConstants.COST_GATEWAY_PREFIX);
		assertThat(gateway).isEmpty();
		assertThat(GatewayCostBench.prefixArgument(HarnessConstants.COST_GATEWAY_PREFIX, gateway)).isEmpty();
	}

	@Test
	@DisplayName("an unknown server names the parameter, the value, the choices and an example")
	void unknown() {
		assertThatIllegalArgumentException().isThrownBy(() -> GatewayCostBench.variants(Optional.of("jdk,tomcat"), false))
				.withMessage(
						"Unable to parse cost.servers value [jdk,tomcat]: use a comma-separated list of [jdk, helidon, netty, jdk-zgc, netty-floor], "
								+ "e.g. -Dcost.servers=jdk,netty");
	}
}
