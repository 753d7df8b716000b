package dev.fakbattery.bench.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.RungOutcome;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.Verdict;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 1 describes the node {@code base.url} names: another host's GPU checks are PENDING_MEASUREMENT naming the fix,
 * decided before any GPU probe. No test here opens a connection: the probes are recorded, and {@code 192.0.2.10} is a
 * TEST-NET address that is only ever parsed.
 */
@DisplayName("PreflightRun: the preflight describes the node it names")
class PreflightRunTests {

	private static final URI REMOTE = URI.create("http://192.0.2.10:8000/v1");

	private static final URI LOOPBACK = URI.create("http://127.0.0.1:8000/v1");

	/** Probes answering from recordings, counting every GPU and import probe. */
	static final class RecordingProbesTestCase implements PreflightProbes {

		final List<String> calls = new ArrayList<>();

		@Override
		public NvidiaSmiReading nvidiaSmi() {
			calls.add("nvidia-smi");
			return NvidiaSmiReading.parse(PreflightFixtures.resource("nvidia-smi-8xH200.csv"), true);
		}

		@Override
		public EngineProbe engineImport(String engine) {
			calls.add("import " + engine);
			return new EngineProbe(true, "0.11.0", "");
		}

		@Override
		public ServedModels models(URI v1Base) {
			calls.add("models " + v1Base);
			return new ServedModels(200, List.of(new ServedModels.Model("m", OptionalLong.of(8192))), "");
		}

		@Override
		public EngineVersionInfo version(URI v1Base) {
			calls.add("version " + v1Base);
			return new EngineVersionInfo(200, Optional.of("0.11.0"), "");
		}
	}

	private static RungRecorder run(URI base, Map<String, String> extra) {
		Map<String, String> values = new java.util.HashMap<>(Map.of(HarnessConstants.BASE_URL, base.toString(),
				HarnessConstants.MODEL, "m", HarnessConstants.QUANT, "fp8", HarnessConstants.PREFLIGHT_MODEL_PARAMS_B, "8"));
		values.putAll(extra);
		return new RungRecorder(ArtifactId.PREFLIGHT, HarnessConfig.of(name -> Optional.ofNullable(values.get(name))));
	}

	@Test
	@DisplayName("base.url on another host: the GPU checks are PENDING_MEASUREMENT naming the fix, and nvidia-smi never runs")
	void remoteNodeIsPending() {
		RungRecorder run = run(REMOTE, Map.of(HarnessConstants.GPU_NAME_REQUIRED, "H200"));
		RecordingProbesTestCase probes = new RecordingProbesTestCase();
		Optional<String> elsewhere = NodeLocality.elsewhere(REMOTE, host -> new InetAddress[]{ InetAddress.getByName(host) },
				address -> false);

		PreflightRun.record(run, REMOTE, probes, PreflightRun.elsewhere(run, REMOTE, elsewhere));

		assertThat(probes.calls).as("no GPU or import probe of this machine").containsExactly("models " + REMOTE);
		assertThat(run.pendings()).extracting(Measurement.Pending::name)
				.containsExactly(PreflightChecks.NODE_VERDICT, PreflightChecks.ENGINE_READY, GpuNameGuard.CHECK);
		assertThat(run.pendings().get(0).missing()).contains("192.0.2.10").contains("not this host");
		assertThat(run.pendings().get(0).howToProvide()).contains("run the harness on the node").contains("127.0.0.1:8000");
		assertThat(run.checks()).extracting(Check::name).doesNotContain(PreflightChecks.NODE_VERDICT, PreflightChecks.ENGINE_READY);
		assertThat(run.body().path("nvidia_smi").isMissingNode()).as("no reading of this machine in the artifact").isTrue();
		assertThat(run.body().at("/node_locality/this_host").asBoolean()).isFalse();
		assertThat(RungOutcome.verdict(run, Optional.empty())).isEqualTo(Verdict.PENDING_MEASUREMENT);
	}

	@Test
	@DisplayName("base.url on loopback: nvidia-smi and the import run and the GPU checks are judged, as on the node")
	void loopbackNodeIsJudged() {
		RungRecorder run = run(LOOPBACK, Map.of());
		RecordingProbesTestCase probes = new RecordingProbesTestCase();

		PreflightRun.record(run, LOOPBACK, probes, PreflightRun.elsewhere(run, LOOPBACK, NodeLocality.elsewhere(LOOPBACK)));

		assertThat(probes.calls).containsExactly("nvidia-smi", "import vllm", "models " + LOOPBACK);
		assertThat(run.pendings()).isEmpty();
		assertThat(run.checks()).extracting(Check::name)
				.containsExactly("engine_models_endpoint", "served_model_name", PreflightChecks.NODE_VERDICT,
						PreflightChecks.ENGINE_READY);
		assertThat(run.checks()).allMatch(Check::passed);
		assertThat(run.body().at("/nvidia_smi/status").asText()).isEqualTo("OK");
		assertThat(run.body().at("/node_locality/this_host").asBoolean()).isTrue();
	}

	@Test
	@DisplayName("an engine this run started (no base.url) is on this host, whatever its URL")
	void startedEngineIsHere() {
		RungRecorder run = new RungRecorder(ArtifactId.PREFLIGHT, HarnessConfig.of(name -> Optional.empty()));

		assertThat(PreflightRun.elsewhere(run, REMOTE, Optional.of("elsewhere"))).isEmpty();
	}

	@Test
	@DisplayName("this host is loopback, the wildcard or an interface's address; another address, or a name that does not resolve, is not")
	void locality() throws UnknownHostException {
		NodeLocality.Interfaces none = address -> false;
		NodeLocality.Resolver literal = host -> new InetAddress[]{ InetAddress.getByName(host) };

		assertThat(NodeLocality.elsewhere(URI.create("http://127.0.0.5:8000/v1"), literal, none)).isEmpty();
		assertThat(NodeLocality.elsewhere(URI.create("http://[::1]:8000/v1"), literal, none)).isEmpty();
		assertThat(NodeLocality.elsewhere(URI.create("http://0.0.0.0:8000/v1"), literal, none)).isEmpty();
		assertThat(NodeLocality.elsewhere(URI.create("http://localhost:8000/v1"))).isEmpty();
		assertThat(NodeLocality.elsewhere(REMOTE)).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
				.contains("192.0.2.10 is neither loopback nor an address of this machine's interfaces");
		InetAddress own = InetAddress.getByName("10.1.2.3");
		assertThat(NodeLocality.elsewhere(URI.create("http://10.1.2.3:8000/v1"), literal, own::equals)).isEmpty();
		assertThat(NodeLocality.elsewhere(URI.create("http://node:8000/v1"), host -> {
			throw new UnknownHostException(host);
		}, none)).get(org.assertj.core.api.InstanceOfAssertFactories.STRING).contains("does not resolve");
		assertThat(NodeLocality.elsewhere(URI.create("http://mixed:8000/v1"),
				host -> new InetAddress[]{ InetAddress.getByName("127.0.0.1"), InetAddress.getByName("192.0.2.10") }, none))
				.as("a name is this host only when every address it resolves to is")
				.isPresent();
	}

	@Test
	@DisplayName("what the rung records of the node and the endpoint: the served models, the GPU count read, and a headline saying which node")
	void recordsEndpointAndHeadline() {
		RungRecorder here = run(LOOPBACK, Map.of());
		RecordingProbesTestCase probes = new RecordingProbesTestCase();
		PreflightRun.record(here, LOOPBACK, probes);
		assertThat(probes.calls).as("loopback is this host: the node is read here").startsWith("nvidia-smi");
		assertThat(here.body().at("/engine_endpoint/served_models")).extracting(com.fasterxml.jackson.databind.JsonNode::asText)
				.containsExactly("m");
		assertThat(here.measurements()).filteredOn(m -> m.name().equals("gpu_count"))
				.singleElement()
				.satisfies(m -> assertThat(((Measurement.Measured) m).value()).isEqualTo(8));
		assertThat(here.headline())
				.hasValueSatisfying(h -> assertThat(h).startsWith("node ").endsWith(", engine version unknown, serves [m]"));

		URI remote = URI.create("https://node.example/v1");
		RungRecorder there = run(remote, Map.of());
		PreflightRun.record(there, remote, new RecordingProbesTestCase(), Optional.of("the host node.example is not this host"));
		assertThat(there.headline()).hasValue("node not judged (not this host: run the harness on it), engine version unknown, serves [m]");
		assertThat(there.pendings().get(0).howToProvide()).as("no port in the URL: https's")
				.isEqualTo("run the harness on the node that base.url names, with -Dbase.url=http://127.0.0.1:443/v1 there");
		assertThat(there.measurements()).extracting(Measurement::name).doesNotContain("gpu_count");
		RungRecorder plain = run(URI.create("http://node.example/v1"), Map.of());
		PreflightRun.record(plain, URI.create("http://node.example/v1"), new RecordingProbesTestCase(), Optional.of("elsewhere"));
		assertThat(plain.pendings().get(0).howToProvide()).endsWith("-Dbase.url=http://127.0.0.1:80/v1 there");
	}

	@Test
	@DisplayName("an IPv6 literal is resolved without its brackets; a URL without a host, or an interface that cannot be read, is not this host")
	void localityEdges() {
		List<String> asked = new ArrayList<>();
		NodeLocality.Resolver recording = host -> {
			asked.add(host);
			return new InetAddress[]{ InetAddress.getByName(host) };
		};
		assertThat(NodeLocality.elsewhere(URI.create("http://[::1]:8000/v1"), recording, address -> false)).isEmpty();
		assertThat(NodeLocality.elsewhere(URI.create("http://127.0.0.1:8000/v1"), recording, address -> false)).isEmpty();
		assertThat(asked).containsExactly("::1", "127.0.0.1");
		assertThat(NodeLocality.elsewhere(URI.create("file:///v1"), recording, address -> false)).hasValue("file:///v1 names no host");
		assertThat(NodeLocality.elsewhere(URI.create("http://10.1.2.3:8000/v1"), recording, address -> {
			throw new java.net.SocketException("no interfaces");
		})).get(org.assertj.core.api.InstanceOfAssertFactories.STRING).contains("10.1.2.3 is neither loopback");
		assertThat(NodeLocality.elsewhere(URI.create("http://empty:8000/v1"), host -> new InetAddress[0], address -> false))
				.hasValue("the host empty of http://empty:8000/v1 resolves to no address");
	}
}
