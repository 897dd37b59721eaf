import test from "ava";
import fc from "fast-check";
import { duplicateJsonName } from "../src/http/json-keys.js";

test("no JSON.stringify output has a duplicate name", (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      t.is(duplicateJsonName(JSON.stringify(value)), undefined);
    }),
  );
});

test("a name repeated in any object of a document is found, however it is spelled", (t) => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.jsonValue(), (object, name, value) => {
      const text = JSON.stringify({ ...object, [name]: value });
      // The same name again, with its first character escaped when it has one.
      const first = `\\u${name.charCodeAt(0).toString(16).padStart(4, "0")}`;
      const escaped = name.length === 0 ? '""' : `"${first}${JSON.stringify(name.slice(1)).slice(1)}`;
      const repeated = `${text.slice(0, -1)},${escaped}:0}`;
      t.is(duplicateJsonName(repeated), name);
      t.is(duplicateJsonName(`[1,{"k":${repeated}}]`), name);
    }),
  );
});

test("names are per object: the same name in sibling and nested objects is no duplicate", (t) => {
  t.is(duplicateJsonName('{"a":{"a":1},"b":[{"a":1},{"a":2}]}'), undefined);
  t.is(duplicateJsonName('{"a":"\\"a\\":","b":1}'), undefined);
  t.is(duplicateJsonName('{"a":1,"b":{"c":1},"a":2}'), "a");
});

test("text that is not JSON is left to the parser", (t) => {
  for (const text of ['{"a', '{"a":1,"\\x":2}', "", "}}]]", '{"a":1}}{"a":2}'])
    t.notThrows(() => duplicateJsonName(text));
});
