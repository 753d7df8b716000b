// Preloaded by portkey.sh (node --import): every server this Node process starts listens on 127.0.0.1 only. The Portkey
// gateway's start-server.js listens on every interface (hono's serve() without a hostname); the harness reaches only
// loopback, and a gateway it starts binds nothing else.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
	if (args[0] !== null && typeof args[0] === 'object') {
		args[0] = { ...args[0], host: '127.0.0.1' };
	}
	else if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
		// listen(port[, host][, backlog][, callback])
		if (typeof args[1] === 'string' || args[1] === undefined || args[1] === null) {
			args[1] = '127.0.0.1';
		}
		else {
			args.splice(1, 0, '127.0.0.1');
		}
	}
	return listen.apply(this, args);
};
