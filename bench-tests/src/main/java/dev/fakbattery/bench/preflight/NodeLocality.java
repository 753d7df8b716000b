package dev.fakbattery.bench.preflight;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Whether the engine a URL names runs on this host, so that nvidia-smi and the engine import read here describe it.
 * This host is a loopback name or address ({@code localhost}, 127.0.0.0/8, {@code ::1}), the wildcard address, or an
 * address of one of this machine's network interfaces; a name is resolved (the only traffic: the resolver's), and is
 * this host only when every address it resolves to is; a name that does not resolve is not this host.
 */
final class NodeLocality {

	/** Resolves a host name to its addresses ({@link InetAddress#getAllByName}); an IP literal is parsed, not looked up. */
	interface Resolver {

		InetAddress[] resolve(String host) throws UnknownHostException;
	}

	/** Whether an address is one of this machine's interfaces' ({@link NetworkInterface#getByInetAddress}). */
	interface Interfaces {

		boolean owns(InetAddress address) throws SocketException;
	}

	private NodeLocality() {
	}

	/** {@link #elsewhere(URI, Resolver, Interfaces)} with the system resolver and this machine's interfaces. */
	static Optional<String> elsewhere(URI url) {
		return elsewhere(url, InetAddress::getAllByName, address -> NetworkInterface.getByInetAddress(address) != null);
	}

	/** Why the host of {@code url} is not this host; empty when it is. */
	static Optional<String> elsewhere(URI url, Resolver resolver, Interfaces interfaces) {
		String host = url.getHost();
		if (host == null || host.isBlank()) {
			return Optional.of(url + " names no host");
		}
		String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
		InetAddress[] addresses;
		try {
			addresses = resolver.resolve(bare);
		}
		catch (UnknownHostException e) {
			return Optional.of("the host " + host + " of " + url + " does not resolve here, so it is not known to be this host");
		}
		for (InetAddress address : addresses) {
			if (!local(address, interfaces)) {
				return Optional.of("the host " + host + " of " + url + " is not this host (it resolves to "
						+ Arrays.stream(addresses).map(InetAddress::getHostAddress).toList() + ", and "
						+ address.getHostAddress() + " is neither loopback nor an address of this machine's interfaces)");
			}
		}
		return addresses.length == 0 ? Optional.of("the host " + host + " of " + url + " resolves to no address") : Optional.empty();
	}

	private static boolean local(InetAddress address, Interfaces interfaces) {
		if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
			return true;
		}
		try {
			return interfaces.owns(address);
		}
		catch (SocketException e) {
			return false;
		}
	}
}
