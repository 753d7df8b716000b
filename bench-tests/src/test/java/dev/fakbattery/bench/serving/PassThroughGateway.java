package dev.fakbattery.bench.serving;

import java.net.URI;

import dev.fakbattery.engine.hop.RelayHop;

/**
 * A deliberately wrong "gateway" for the serving witness self-test: it forwards everything, so a
 * poisoned tool result reaches the engine and no quarantine is recorded. Has a /healthz only by
 * passing it through to the engine, which answers /health; the launcher's /v1/models probe finds it.
 */
public final class PassThroughGateway {

	private PassThroughGateway() {
	}

	public static void main(String[] args) throws InterruptedException {
		int port = Integer.parseInt(args[0]);
		try (RelayHop hop = new RelayHop(URI.create(args[1]), port)) {
			Thread.sleep(Long.MAX_VALUE);
		}
	}
}
