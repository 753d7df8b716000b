package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.net.URI;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.RequestSource;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

/**
 * Each arm of a probe on an instant engine double of its own, so a test can count what each arm received, and a
 * request source that records which conversations it was asked for.
 */
final class ArmDoubles implements AutoCloseable {

	final EngineDouble rawEngine = EngineDouble.builder().timing(TimingModel.instant()).start();

	final EngineDouble gatewayEngine = EngineDouble.builder().timing(TimingModel.instant()).start();

	final TargetClient raw = TargetClient.open("raw", URI.create(rawEngine.baseUrl()));

	final TargetClient gateway = TargetClient.open("gateway", URI.create(gatewayEngine.baseUrl()));

	/** The conversation indices {@link #source} was asked for. */
	final Queue<Integer> asked = new ConcurrentLinkedQueue<>();

	/** A fixed streaming request per conversation, each index asked recorded in {@link #asked}. */
	final RequestSource source;

	ArmDoubles() throws IOException {
		RequestSource fixed = RequestSource.fixed(ChatPayload.streaming(rawEngine.model(), "hi", 4));
		source = index -> {
			asked.add(index);
			return fixed.conversation(index);
		};
	}

	@Override
	public void close() {
		raw.close();
		gateway.close();
		rawEngine.close();
		gatewayEngine.close();
	}
}
