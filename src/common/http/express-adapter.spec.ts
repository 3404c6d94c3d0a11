import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { bornWith, expressBornClasses } from './express-adapter.js';

type Ctor = (this: object, ...args: unknown[]) => void;

describe('requests born with the Express prototypes', () => {
  it("makes node:http's objects with the given prototypes, constructed by node:http", () => {
    const request = Object.create(IncomingMessage.prototype) as object;
    const response = Object.create(ServerResponse.prototype) as object;
    const classes = expressBornClasses({ request, response });
    const socket = new Socket();
    const req = new classes.IncomingMessage(socket);
    const res = new classes.ServerResponse(req);
    expect(Object.getPrototypeOf(req)).toBe(request);
    expect(Object.getPrototypeOf(res)).toBe(response);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
    // constructed by node:http itself: its own fields are there
    expect(req.socket).toBe(socket);
    expect(req.headers).toEqual({});
    expect(res.req).toBe(req);
    socket.destroy();
  });

  it('works for a plain constructor function and for a class (should a later Node make them classes)', () => {
    function Plain(this: { made: unknown[] }, ...args: unknown[]): void {
      this.made = args;
    }
    class Modern {
      made: unknown[];
      constructor(...args: unknown[]) {
        this.made = args;
      }
    }
    for (const base of [Plain as unknown as Ctor, Modern as unknown as Ctor]) {
      const prototype = Object.create((base as unknown as { prototype: object }).prototype) as object;
      const Born = bornWith(base, prototype) as unknown as new (...args: unknown[]) => { made: unknown[] };
      const made = new Born(1, 'two');
      expect(Object.getPrototypeOf(made)).toBe(prototype);
      expect(made.made).toEqual([1, 'two']);
    }
  });
});
