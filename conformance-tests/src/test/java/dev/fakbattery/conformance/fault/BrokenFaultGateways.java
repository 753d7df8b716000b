package dev.fakbattery.conformance.fault;

import java.net.URI;
import java.util.Optional;
import java.util.function.UnaryOperator;

import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.gateway.ReferenceGateway;
import dev.fakbattery.gateway.policy.Policy;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayLimits;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * The fault kit's deliberately broken gateways, each the reference gateway with one fault: behind a {@link TcpPipe}
 * that misbehaves, or documenting limits it does not hold (it runs looser than it declares). The fixtures of
 * {@link FaultKitSelfTests} and {@link BrokenFaultGatewayTests}.
 */
final class BrokenFaultGateways {

	private BrokenFaultGateways() {
	}

	/** The reference gateway, its documented limits with the short upstream timeout, behind a pipe in {@code mode}. */
	static GatewayUnderTest piped(String what, TcpPipe.Mode mode, URI upstream, Dialect engine) {
		GatewayUnderTest reference = GatewayUnderTestFaultTests.embeddedWithShortTimeout(upstream, engine);
		TcpPipe pipe = new TcpPipe(reference.baseUrl(), mode);
		return named(what, pipe.url(), reference.limits(), () -> {
			pipe.close();
			reference.close();
		});
	}

	/**
	 * As {@link #piped}, the gateway behind the pipe waiting {@link FaultUpstream#CAP} on a silent upstream: a broken
	 * gateway whose rule does not test the timeout must fail by its fault, not by a stall a busy machine can cause.
	 */
	static GatewayUnderTest pipedPatient(String what, TcpPipe.Mode mode, URI upstream, Dialect engine) {
		return loosePiped(what, mode, l -> l.withUpstreamTimeout(FaultUpstream.CAP), upstream, engine);
	}

	private static GatewayUnderTest loosePiped(String what, TcpPipe.Mode mode, UnaryOperator<GatewayLimits> loosen, URI upstream,
			Dialect engine) {
		GatewayUnderTest gateway = loose(what, loosen, upstream, engine);
		TcpPipe pipe = new TcpPipe(gateway.baseUrl(), mode);
		return named(what, pipe.url(), gateway.limits(), () -> {
			pipe.close();
			gateway.close();
		});
	}

	/** The reference gateway running with {@code loosen}ed limits while it declares the kit's. */
	static GatewayUnderTest loose(String what, UnaryOperator<GatewayLimits> loosen, URI upstream, Dialect engine) {
		GatewayLimits declared;
		try (GatewayUnderTest probe = GatewayUnderTestFaultTests.embeddedWithShortTimeout(upstream, engine)) {
			declared = probe.limits().orElseThrow();
		}
		GatewayUnderTest actual = GatewayLauncher.embedded(upstream, engine, loosen.apply(declared));
		return named(what, actual.baseUrl(), Optional.of(declared), actual::close);
	}

	private static GatewayUnderTest named(String what, URI baseUrl, Optional<GatewayLimits> limits, Runnable close) {
		return new GatewayUnderTest() {
			@Override
			public URI baseUrl() {
				return baseUrl;
			}

			@Override
			public String description() {
				return what;
			}

			@Override
			public boolean declaresAdjudicationRecord() {
				return true;
			}

			@Override
			public Optional<GatewayLimits> limits() {
				return limits;
			}

			@Override
			public void close() {
				close.run();
			}
		};
	}

	// -------------------------------------------------------------------------

	static class FaithfulPipeTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return piped("reference gateway behind a faithful pipe", TcpPipe.Mode.FAITHFUL, upstream, engine);
		}

		/** The pipe passes bytes whatever the dialect: one dialect shows it, the gateway under test runs both. */
		@Override
		protected java.util.List<Dialect> engines() {
			return java.util.List.of(Dialect.VLLM);
		}
	}

	static class KeepsUpstreamAfterClientLeftTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return pipedPatient("broken: does not cancel the upstream when the client leaves", TcpPipe.Mode.DRAINS_AFTER_CLIENT_LEAVES,
					upstream, engine);
		}
	}

	static class CancelsLateTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return pipedPatient("broken: cancels the upstream a second after the client leaves",
					TcpPipe.Mode.CLOSES_LATE_AFTER_CLIENT_LEAVES, upstream, engine);
		}
	}

	/**
	 * Cancels the upstream a second late in its first kit run only (its first gateway) and in time in every later one:
	 * a control whose F01 margin a loaded machine took once, for the reruns of {@link FaultKitSelfTests}.
	 */
	static class CancelsLateOnceTestCase extends FaultVerification {
		private static final java.util.concurrent.atomic.AtomicInteger GATEWAYS = new java.util.concurrent.atomic.AtomicInteger();

		/** The next kit run is the first again. */
		static void reset() {
			GATEWAYS.set(0);
		}

		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return GATEWAYS.getAndIncrement() == 0
					? pipedPatient("broken once: cancels the upstream a second after the client leaves, in its first run only",
							TcpPipe.Mode.CLOSES_LATE_AFTER_CLIENT_LEAVES, upstream, engine)
					: piped("reference gateway behind a faithful pipe", TcpPipe.Mode.FAITHFUL, upstream, engine);
		}

		@Override
		protected java.util.List<Dialect> engines() {
			return java.util.List.of(Dialect.VLLM);
		}
	}

	static class NeverTimesOutTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return loose("broken: never times out a stalled upstream", l -> l.withUpstreamTimeout(FaultUpstream.CAP), upstream, engine);
		}
	}

	static class ResetsClientTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return pipedPatient("broken: resets the client when the upstream resets", TcpPipe.Mode.RESETS_CLIENT_ON_TRUNCATION, upstream,
					engine);
		}
	}

	static class UnboundedLinesTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return loose("broken: reads endless lines without bound", l -> l.withMaxEventBytes(Integer.MAX_VALUE - 8)
					.withUpstreamTimeout(FaultUpstream.CAP), upstream, engine);
		}
	}

	static class BuffersForSlowClientTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return pipedPatient("broken: buffers without bound for a slow client", TcpPipe.Mode.BUFFERS_WITHOUT_BOUND, upstream, engine);
		}
	}

	static class TricklesForSlowClientTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return pipedPatient("broken: reads a slow client's stream at 2 MiB/s without bound", TcpPipe.Mode.TRICKLES_WITHOUT_BOUND,
					upstream, engine);
		}
	}

	static class TakesAnyBodyTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return loose("broken: takes any body", l -> l.withMaxBodyBytes(Long.MAX_VALUE).withUpstreamTimeout(FaultUpstream.CAP), upstream,
					engine);
		}
	}

	static class TakesAnyHeadersTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			return loose("broken: takes any headers", l -> l.withMaxHeaderBytes(Integer.MAX_VALUE).withUpstreamTimeout(FaultUpstream.CAP),
					upstream, engine);
		}
	}

	/** Not broken: the reference gateway as a gateway that declares no limits and is given none (a bare gateway.cmd). */
	static class DeclaresNoLimitsTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			GatewayUnderTest gateway = GatewayUnderTestFaultTests.embeddedWithShortTimeout(upstream, engine);
			return named("a gateway that declares no limits", gateway.baseUrl(), Optional.empty(), gateway::close);
		}
	}

	static class StreamsCallItMustRewriteTestCase extends FaultVerification {
		@Override
		protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
			// allows transform_* by name, so the call whose arguments it should rewrite streams through unheld
			Policy policy = Policy.builder().allow("transform_*").allow("allow_*").build();
			GatewayLimits limits = ReferenceGateway.DEFAULT_LIMITS.withUpstreamTimeout(FaultUpstream.CAP);
			ReferenceGateway gateway = ReferenceGateway.builder()
					.upstream(upstream)
					.engine(engine)
					.policy(policy)
					.limits(limits)
					.build()
					.start();
			return named("broken: streams the call it must rewrite before the call is complete", gateway.baseUrl(), Optional.of(limits),
					gateway::close);
		}
	}
}
