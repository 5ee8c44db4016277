/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

// Common aliases
const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError, $TypeError = $util.global.TypeError, $Number = $util.global.Number, $parseInt = $util.global.parseInt, $String = $util.global.String, $BigInt = $util.global.BigInt, $isFinite = $util.global.isFinite, $Boolean = $util.global.Boolean, $Array = $util.global.Array;

// Exported root namespace
const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const ingress = $root.ingress = (() => {

    /**
     * Namespace ingress.
     * @exports ingress
     * @namespace
     */
    const ingress = {};

    ingress.Location = (function() {

        /**
         * Properties of a Location.
         * @typedef {Object} ingress.Location.$Properties
         * @property {number|Long|null} [timestamp] Location timestamp
         * @property {number|null} [latitude] Location latitude
         * @property {number|null} [longitude] Location longitude
         * @property {number|null} [velocity] Location velocity
         * @property {number|null} [course] Location course
         * @property {number|null} [accuracy] Location accuracy
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Location.
         * @memberof ingress
         * @interface ILocation
         * @augments ingress.Location.$Properties
         * @deprecated Use ingress.Location.$Properties instead.
         */

        /**
         * Shape of a Location.
         * @typedef {ingress.Location.$Properties} ingress.Location.$Shape
         */

        /**
         * Constructs a new Location.
         * @memberof ingress
         * @classdesc Represents a Location.
         * @constructor
         * @param {ingress.Location.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Location = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Location timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Location
         * @instance
         */
        Location.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Location latitude.
         * @member {number} latitude
         * @memberof ingress.Location
         * @instance
         */
        Location.prototype.latitude = 0;

        /**
         * Location longitude.
         * @member {number} longitude
         * @memberof ingress.Location
         * @instance
         */
        Location.prototype.longitude = 0;

        /**
         * Location velocity.
         * @member {number} velocity
         * @memberof ingress.Location
         * @instance
         */
        Location.prototype.velocity = 0;

        /**
         * Location course.
         * @member {number} course
         * @memberof ingress.Location
         * @instance
         */
        Location.prototype.course = 0;

        /**
         * Location accuracy.
         * @member {number} accuracy
         * @memberof ingress.Location
         * @instance
         */
        Location.prototype.accuracy = 0;

        /**
         * Creates a new Location instance using the specified properties.
         * @function create
         * @memberof ingress.Location
         * @static
         * @param {ingress.Location.$Properties=} [properties] Properties to set
         * @returns {ingress.Location} Location instance
         * @type {{
         *   (properties: ingress.Location.$Shape): ingress.Location & ingress.Location.$Shape;
         *   (properties?: ingress.Location.$Properties): ingress.Location;
         * }}
         */
        Location.create = function(properties) {
            return new Location(properties);
        };

        /**
         * Encodes the specified Location message. Does not implicitly {@link ingress.Location.verify|verify} messages.
         * @function encode
         * @memberof ingress.Location
         * @static
         * @param {ingress.Location.$Properties} message Location message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Location.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.latitude != null && $Object.hasOwnProperty.call(message, "latitude") && !$Object.is(message.latitude, 0))
                writer.uint32(/* id 2, wireType 5 =*/21).float(message.latitude);
            if (message.longitude != null && $Object.hasOwnProperty.call(message, "longitude") && !$Object.is(message.longitude, 0))
                writer.uint32(/* id 3, wireType 5 =*/29).float(message.longitude);
            if (message.velocity != null && $Object.hasOwnProperty.call(message, "velocity") && !$Object.is(message.velocity, 0))
                writer.uint32(/* id 4, wireType 5 =*/37).float(message.velocity);
            if (message.course != null && $Object.hasOwnProperty.call(message, "course") && !$Object.is(message.course, 0))
                writer.uint32(/* id 5, wireType 5 =*/45).float(message.course);
            if (message.accuracy != null && $Object.hasOwnProperty.call(message, "accuracy") && !$Object.is(message.accuracy, 0))
                writer.uint32(/* id 6, wireType 5 =*/53).float(message.accuracy);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Location message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Location
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Location & ingress.Location.$Shape} Location
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Location.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Location();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 5)
                            break;
                        if (!$Object.is(value = reader.float(), 0))
                            message.latitude = value;
                        else
                            delete message.latitude;
                        continue;
                    }
                case 3: {
                        if (wireType !== 5)
                            break;
                        if (!$Object.is(value = reader.float(), 0))
                            message.longitude = value;
                        else
                            delete message.longitude;
                        continue;
                    }
                case 4: {
                        if (wireType !== 5)
                            break;
                        if (!$Object.is(value = reader.float(), 0))
                            message.velocity = value;
                        else
                            delete message.velocity;
                        continue;
                    }
                case 5: {
                        if (wireType !== 5)
                            break;
                        if (!$Object.is(value = reader.float(), 0))
                            message.course = value;
                        else
                            delete message.course;
                        continue;
                    }
                case 6: {
                        if (wireType !== 5)
                            break;
                        if (!$Object.is(value = reader.float(), 0))
                            message.accuracy = value;
                        else
                            delete message.accuracy;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Location message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Location
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Location} Location
         */
        Location.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Location)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Location: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Location();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.latitude != null)
                if (!$Object.is($Number(object.latitude), 0))
                    message.latitude = $Number(object.latitude);
            if (object.longitude != null)
                if (!$Object.is($Number(object.longitude), 0))
                    message.longitude = $Number(object.longitude);
            if (object.velocity != null)
                if (!$Object.is($Number(object.velocity), 0))
                    message.velocity = $Number(object.velocity);
            if (object.course != null)
                if (!$Object.is($Number(object.course), 0))
                    message.course = $Number(object.course);
            if (object.accuracy != null)
                if (!$Object.is($Number(object.accuracy), 0))
                    message.accuracy = $Number(object.accuracy);
            return message;
        };

        /**
         * Creates a plain object from a Location message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Location
         * @static
         * @param {ingress.Location} message Location
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Location.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.latitude = 0;
                object.longitude = 0;
                object.velocity = 0;
                object.course = 0;
                object.accuracy = 0;
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.latitude != null && $Object.hasOwnProperty.call(message, "latitude"))
                object.latitude = options.json && !$isFinite(message.latitude) ? $String(message.latitude) : message.latitude;
            if (message.longitude != null && $Object.hasOwnProperty.call(message, "longitude"))
                object.longitude = options.json && !$isFinite(message.longitude) ? $String(message.longitude) : message.longitude;
            if (message.velocity != null && $Object.hasOwnProperty.call(message, "velocity"))
                object.velocity = options.json && !$isFinite(message.velocity) ? $String(message.velocity) : message.velocity;
            if (message.course != null && $Object.hasOwnProperty.call(message, "course"))
                object.course = options.json && !$isFinite(message.course) ? $String(message.course) : message.course;
            if (message.accuracy != null && $Object.hasOwnProperty.call(message, "accuracy"))
                object.accuracy = options.json && !$isFinite(message.accuracy) ? $String(message.accuracy) : message.accuracy;
            return object;
        };

        /**
         * Converts this Location to JSON.
         * @function toJSON
         * @memberof ingress.Location
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Location.prototype.toJSON = function() {
            return Location.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Location;
    })();

    ingress.Wifi = (function() {

        /**
         * Properties of a Wifi.
         * @typedef {Object} ingress.Wifi.$Properties
         * @property {number|Long|null} [timestamp] Wifi timestamp
         * @property {string|null} [mac] Wifi mac
         * @property {string|null} [ssid] Wifi ssid
         * @property {number|null} [rssi] Wifi rssi
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Wifi.
         * @memberof ingress
         * @interface IWifi
         * @augments ingress.Wifi.$Properties
         * @deprecated Use ingress.Wifi.$Properties instead.
         */

        /**
         * Shape of a Wifi.
         * @typedef {ingress.Wifi.$Properties} ingress.Wifi.$Shape
         */

        /**
         * Constructs a new Wifi.
         * @memberof ingress
         * @classdesc Represents a Wifi.
         * @constructor
         * @param {ingress.Wifi.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Wifi = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Wifi timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Wifi
         * @instance
         */
        Wifi.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Wifi mac.
         * @member {string} mac
         * @memberof ingress.Wifi
         * @instance
         */
        Wifi.prototype.mac = "";

        /**
         * Wifi ssid.
         * @member {string} ssid
         * @memberof ingress.Wifi
         * @instance
         */
        Wifi.prototype.ssid = "";

        /**
         * Wifi rssi.
         * @member {number} rssi
         * @memberof ingress.Wifi
         * @instance
         */
        Wifi.prototype.rssi = 0;

        /**
         * Creates a new Wifi instance using the specified properties.
         * @function create
         * @memberof ingress.Wifi
         * @static
         * @param {ingress.Wifi.$Properties=} [properties] Properties to set
         * @returns {ingress.Wifi} Wifi instance
         * @type {{
         *   (properties: ingress.Wifi.$Shape): ingress.Wifi & ingress.Wifi.$Shape;
         *   (properties?: ingress.Wifi.$Properties): ingress.Wifi;
         * }}
         */
        Wifi.create = function(properties) {
            return new Wifi(properties);
        };

        /**
         * Encodes the specified Wifi message. Does not implicitly {@link ingress.Wifi.verify|verify} messages.
         * @function encode
         * @memberof ingress.Wifi
         * @static
         * @param {ingress.Wifi.$Properties} message Wifi message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Wifi.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.mac != null && $Object.hasOwnProperty.call(message, "mac") && message.mac !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.mac);
            if (message.ssid != null && $Object.hasOwnProperty.call(message, "ssid") && message.ssid !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.ssid);
            if (message.rssi != null && $Object.hasOwnProperty.call(message, "rssi") && message.rssi !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).int32(message.rssi);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Wifi message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Wifi
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Wifi & ingress.Wifi.$Shape} Wifi
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Wifi.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Wifi();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.mac = value;
                        else
                            delete message.mac;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.ssid = value;
                        else
                            delete message.ssid;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.rssi = value;
                        else
                            delete message.rssi;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Wifi message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Wifi
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Wifi} Wifi
         */
        Wifi.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Wifi)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Wifi: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Wifi();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.mac != null)
                if (typeof object.mac !== "string" || object.mac.length)
                    message.mac = $String(object.mac);
            if (object.ssid != null)
                if (typeof object.ssid !== "string" || object.ssid.length)
                    message.ssid = $String(object.ssid);
            if (object.rssi != null)
                if ($Number(object.rssi) !== 0)
                    message.rssi = object.rssi | 0;
            return message;
        };

        /**
         * Creates a plain object from a Wifi message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Wifi
         * @static
         * @param {ingress.Wifi} message Wifi
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Wifi.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.mac = "";
                object.ssid = "";
                object.rssi = 0;
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.mac != null && $Object.hasOwnProperty.call(message, "mac"))
                object.mac = message.mac;
            if (message.ssid != null && $Object.hasOwnProperty.call(message, "ssid"))
                object.ssid = message.ssid;
            if (message.rssi != null && $Object.hasOwnProperty.call(message, "rssi"))
                object.rssi = message.rssi;
            return object;
        };

        /**
         * Converts this Wifi to JSON.
         * @function toJSON
         * @memberof ingress.Wifi
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Wifi.prototype.toJSON = function() {
            return Wifi.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Wifi;
    })();

    ingress.IBeacon = (function() {

        /**
         * Properties of a IBeacon.
         * @typedef {Object} ingress.IBeacon.$Properties
         * @property {number|Long|null} [timestamp] IBeacon timestamp
         * @property {string|null} [uuid] IBeacon uuid
         * @property {number|Long|null} [rssi] IBeacon rssi
         * @property {number|Long|null} [major] IBeacon major
         * @property {number|Long|null} [minor] IBeacon minor
         * @property {string|null} [proximity] IBeacon proximity
         * @property {number|null} [accuracy] IBeacon accuracy
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a IBeacon.
         * @memberof ingress
         * @interface IIBeacon
         * @augments ingress.IBeacon.$Properties
         * @deprecated Use ingress.IBeacon.$Properties instead.
         */

        /**
         * Shape of a IBeacon.
         * @typedef {ingress.IBeacon.$Properties} ingress.IBeacon.$Shape
         */

        /**
         * Constructs a new IBeacon.
         * @memberof ingress
         * @classdesc Represents a IBeacon.
         * @constructor
         * @param {ingress.IBeacon.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const IBeacon = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * IBeacon timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.IBeacon
         * @instance
         */
        IBeacon.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * IBeacon uuid.
         * @member {string} uuid
         * @memberof ingress.IBeacon
         * @instance
         */
        IBeacon.prototype.uuid = "";

        /**
         * IBeacon rssi.
         * @member {number|Long} rssi
         * @memberof ingress.IBeacon
         * @instance
         */
        IBeacon.prototype.rssi = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * IBeacon major.
         * @member {number|Long} major
         * @memberof ingress.IBeacon
         * @instance
         */
        IBeacon.prototype.major = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * IBeacon minor.
         * @member {number|Long} minor
         * @memberof ingress.IBeacon
         * @instance
         */
        IBeacon.prototype.minor = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * IBeacon proximity.
         * @member {string} proximity
         * @memberof ingress.IBeacon
         * @instance
         */
        IBeacon.prototype.proximity = "";

        /**
         * IBeacon accuracy.
         * @member {number} accuracy
         * @memberof ingress.IBeacon
         * @instance
         */
        IBeacon.prototype.accuracy = 0;

        /**
         * Creates a new IBeacon instance using the specified properties.
         * @function create
         * @memberof ingress.IBeacon
         * @static
         * @param {ingress.IBeacon.$Properties=} [properties] Properties to set
         * @returns {ingress.IBeacon} IBeacon instance
         * @type {{
         *   (properties: ingress.IBeacon.$Shape): ingress.IBeacon & ingress.IBeacon.$Shape;
         *   (properties?: ingress.IBeacon.$Properties): ingress.IBeacon;
         * }}
         */
        IBeacon.create = function(properties) {
            return new IBeacon(properties);
        };

        /**
         * Encodes the specified IBeacon message. Does not implicitly {@link ingress.IBeacon.verify|verify} messages.
         * @function encode
         * @memberof ingress.IBeacon
         * @static
         * @param {ingress.IBeacon.$Properties} message IBeacon message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        IBeacon.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.uuid != null && $Object.hasOwnProperty.call(message, "uuid") && message.uuid !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.uuid);
            if (message.rssi != null && $Object.hasOwnProperty.call(message, "rssi") && (typeof message.rssi === "object" ? message.rssi.low || message.rssi.high : message.rssi !== 0))
                writer.uint32(/* id 3, wireType 0 =*/24).int64(message.rssi);
            if (message.major != null && $Object.hasOwnProperty.call(message, "major") && (typeof message.major === "object" ? message.major.low || message.major.high : message.major !== 0))
                writer.uint32(/* id 4, wireType 0 =*/32).int64(message.major);
            if (message.minor != null && $Object.hasOwnProperty.call(message, "minor") && (typeof message.minor === "object" ? message.minor.low || message.minor.high : message.minor !== 0))
                writer.uint32(/* id 5, wireType 0 =*/40).int64(message.minor);
            if (message.proximity != null && $Object.hasOwnProperty.call(message, "proximity") && message.proximity !== "")
                writer.uint32(/* id 6, wireType 2 =*/50).string(message.proximity);
            if (message.accuracy != null && $Object.hasOwnProperty.call(message, "accuracy") && !$Object.is(message.accuracy, 0))
                writer.uint32(/* id 7, wireType 5 =*/61).float(message.accuracy);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a IBeacon message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.IBeacon
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.IBeacon & ingress.IBeacon.$Shape} IBeacon
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        IBeacon.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.IBeacon();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.uuid = value;
                        else
                            delete message.uuid;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.rssi = value;
                        else
                            delete message.rssi;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.major = value;
                        else
                            delete message.major;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.minor = value;
                        else
                            delete message.minor;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.proximity = value;
                        else
                            delete message.proximity;
                        continue;
                    }
                case 7: {
                        if (wireType !== 5)
                            break;
                        if (!$Object.is(value = reader.float(), 0))
                            message.accuracy = value;
                        else
                            delete message.accuracy;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a IBeacon message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.IBeacon
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.IBeacon} IBeacon
         */
        IBeacon.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.IBeacon)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.IBeacon: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.IBeacon();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.uuid != null)
                if (typeof object.uuid !== "string" || object.uuid.length)
                    message.uuid = $String(object.uuid);
            if (object.rssi != null)
                if (typeof object.rssi === "object" ? object.rssi.low || object.rssi.high : $Number(object.rssi) !== 0)
                    if ($util.Long)
                        message.rssi = $util.Long.fromValue(object.rssi, false);
                    else if (typeof object.rssi === "string")
                        message.rssi = $parseInt(object.rssi, 10);
                    else if (typeof object.rssi === "number")
                        message.rssi = object.rssi;
                    else if (typeof object.rssi === "object")
                        message.rssi = new $util.LongBits(object.rssi.low >>> 0, object.rssi.high >>> 0).toNumber();
            if (object.major != null)
                if (typeof object.major === "object" ? object.major.low || object.major.high : $Number(object.major) !== 0)
                    if ($util.Long)
                        message.major = $util.Long.fromValue(object.major, false);
                    else if (typeof object.major === "string")
                        message.major = $parseInt(object.major, 10);
                    else if (typeof object.major === "number")
                        message.major = object.major;
                    else if (typeof object.major === "object")
                        message.major = new $util.LongBits(object.major.low >>> 0, object.major.high >>> 0).toNumber();
            if (object.minor != null)
                if (typeof object.minor === "object" ? object.minor.low || object.minor.high : $Number(object.minor) !== 0)
                    if ($util.Long)
                        message.minor = $util.Long.fromValue(object.minor, false);
                    else if (typeof object.minor === "string")
                        message.minor = $parseInt(object.minor, 10);
                    else if (typeof object.minor === "number")
                        message.minor = object.minor;
                    else if (typeof object.minor === "object")
                        message.minor = new $util.LongBits(object.minor.low >>> 0, object.minor.high >>> 0).toNumber();
            if (object.proximity != null)
                if (typeof object.proximity !== "string" || object.proximity.length)
                    message.proximity = $String(object.proximity);
            if (object.accuracy != null)
                if (!$Object.is($Number(object.accuracy), 0))
                    message.accuracy = $Number(object.accuracy);
            return message;
        };

        /**
         * Creates a plain object from a IBeacon message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.IBeacon
         * @static
         * @param {ingress.IBeacon} message IBeacon
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        IBeacon.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.uuid = "";
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.rssi = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.rssi = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.major = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.major = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.minor = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.minor = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.proximity = "";
                object.accuracy = 0;
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.uuid != null && $Object.hasOwnProperty.call(message, "uuid"))
                object.uuid = message.uuid;
            if (message.rssi != null && $Object.hasOwnProperty.call(message, "rssi"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.rssi = typeof message.rssi === "number" ? $BigInt(message.rssi) : $util.Long.fromBits(message.rssi.low >>> 0, message.rssi.high >>> 0, false).toBigInt();
                else if (typeof message.rssi === "number")
                    object.rssi = options.longs === $String ? $String(message.rssi) : message.rssi;
                else
                    object.rssi = options.longs === $String ? $util.Long.prototype.toString.call(message.rssi) : options.longs === $Number ? new $util.LongBits(message.rssi.low >>> 0, message.rssi.high >>> 0).toNumber() : message.rssi;
            if (message.major != null && $Object.hasOwnProperty.call(message, "major"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.major = typeof message.major === "number" ? $BigInt(message.major) : $util.Long.fromBits(message.major.low >>> 0, message.major.high >>> 0, false).toBigInt();
                else if (typeof message.major === "number")
                    object.major = options.longs === $String ? $String(message.major) : message.major;
                else
                    object.major = options.longs === $String ? $util.Long.prototype.toString.call(message.major) : options.longs === $Number ? new $util.LongBits(message.major.low >>> 0, message.major.high >>> 0).toNumber() : message.major;
            if (message.minor != null && $Object.hasOwnProperty.call(message, "minor"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.minor = typeof message.minor === "number" ? $BigInt(message.minor) : $util.Long.fromBits(message.minor.low >>> 0, message.minor.high >>> 0, false).toBigInt();
                else if (typeof message.minor === "number")
                    object.minor = options.longs === $String ? $String(message.minor) : message.minor;
                else
                    object.minor = options.longs === $String ? $util.Long.prototype.toString.call(message.minor) : options.longs === $Number ? new $util.LongBits(message.minor.low >>> 0, message.minor.high >>> 0).toNumber() : message.minor;
            if (message.proximity != null && $Object.hasOwnProperty.call(message, "proximity"))
                object.proximity = message.proximity;
            if (message.accuracy != null && $Object.hasOwnProperty.call(message, "accuracy"))
                object.accuracy = options.json && !$isFinite(message.accuracy) ? $String(message.accuracy) : message.accuracy;
            return object;
        };

        /**
         * Converts this IBeacon to JSON.
         * @function toJSON
         * @memberof ingress.IBeacon
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        IBeacon.prototype.toJSON = function() {
            return IBeacon.toObject(this, $protobuf.util.toJSONOptions);
        };

        return IBeacon;
    })();

    ingress.Power = (function() {

        /**
         * Properties of a Power.
         * @typedef {Object} ingress.Power.$Properties
         * @property {number|Long|null} [timestamp] Power timestamp
         * @property {boolean|null} [charging] Power charging
         * @property {number|Long|null} [batteryLife] Power batteryLife
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Power.
         * @memberof ingress
         * @interface IPower
         * @augments ingress.Power.$Properties
         * @deprecated Use ingress.Power.$Properties instead.
         */

        /**
         * Shape of a Power.
         * @typedef {ingress.Power.$Properties} ingress.Power.$Shape
         */

        /**
         * Constructs a new Power.
         * @memberof ingress
         * @classdesc Represents a Power.
         * @constructor
         * @param {ingress.Power.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Power = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Power timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Power
         * @instance
         */
        Power.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Power charging.
         * @member {boolean} charging
         * @memberof ingress.Power
         * @instance
         */
        Power.prototype.charging = false;

        /**
         * Power batteryLife.
         * @member {number|Long} batteryLife
         * @memberof ingress.Power
         * @instance
         */
        Power.prototype.batteryLife = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Creates a new Power instance using the specified properties.
         * @function create
         * @memberof ingress.Power
         * @static
         * @param {ingress.Power.$Properties=} [properties] Properties to set
         * @returns {ingress.Power} Power instance
         * @type {{
         *   (properties: ingress.Power.$Shape): ingress.Power & ingress.Power.$Shape;
         *   (properties?: ingress.Power.$Properties): ingress.Power;
         * }}
         */
        Power.create = function(properties) {
            return new Power(properties);
        };

        /**
         * Encodes the specified Power message. Does not implicitly {@link ingress.Power.verify|verify} messages.
         * @function encode
         * @memberof ingress.Power
         * @static
         * @param {ingress.Power.$Properties} message Power message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Power.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.charging != null && $Object.hasOwnProperty.call(message, "charging") && message.charging !== false)
                writer.uint32(/* id 2, wireType 0 =*/16).bool(message.charging);
            if (message.batteryLife != null && $Object.hasOwnProperty.call(message, "batteryLife") && (typeof message.batteryLife === "object" ? message.batteryLife.low || message.batteryLife.high : message.batteryLife !== 0))
                writer.uint32(/* id 3, wireType 0 =*/24).int64(message.batteryLife);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Power message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Power
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Power & ingress.Power.$Shape} Power
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Power.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Power();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.charging = value;
                        else
                            delete message.charging;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.batteryLife = value;
                        else
                            delete message.batteryLife;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Power message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Power
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Power} Power
         */
        Power.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Power)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Power: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Power();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.charging != null)
                if (object.charging)
                    message.charging = $Boolean(object.charging);
            if (object.batteryLife != null)
                if (typeof object.batteryLife === "object" ? object.batteryLife.low || object.batteryLife.high : $Number(object.batteryLife) !== 0)
                    if ($util.Long)
                        message.batteryLife = $util.Long.fromValue(object.batteryLife, false);
                    else if (typeof object.batteryLife === "string")
                        message.batteryLife = $parseInt(object.batteryLife, 10);
                    else if (typeof object.batteryLife === "number")
                        message.batteryLife = object.batteryLife;
                    else if (typeof object.batteryLife === "object")
                        message.batteryLife = new $util.LongBits(object.batteryLife.low >>> 0, object.batteryLife.high >>> 0).toNumber();
            return message;
        };

        /**
         * Creates a plain object from a Power message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Power
         * @static
         * @param {ingress.Power} message Power
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Power.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.charging = false;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.batteryLife = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.batteryLife = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.charging != null && $Object.hasOwnProperty.call(message, "charging"))
                object.charging = message.charging;
            if (message.batteryLife != null && $Object.hasOwnProperty.call(message, "batteryLife"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.batteryLife = typeof message.batteryLife === "number" ? $BigInt(message.batteryLife) : $util.Long.fromBits(message.batteryLife.low >>> 0, message.batteryLife.high >>> 0, false).toBigInt();
                else if (typeof message.batteryLife === "number")
                    object.batteryLife = options.longs === $String ? $String(message.batteryLife) : message.batteryLife;
                else
                    object.batteryLife = options.longs === $String ? $util.Long.prototype.toString.call(message.batteryLife) : options.longs === $Number ? new $util.LongBits(message.batteryLife.low >>> 0, message.batteryLife.high >>> 0).toNumber() : message.batteryLife;
            return object;
        };

        /**
         * Converts this Power to JSON.
         * @function toJSON
         * @memberof ingress.Power
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Power.prototype.toJSON = function() {
            return Power.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Power;
    })();

    ingress.Activity = (function() {

        /**
         * Properties of an Activity.
         * @typedef {Object} ingress.Activity.$Properties
         * @property {number|Long|null} [timestamp] Activity timestamp
         * @property {string|null} [type] Activity type
         * @property {string|null} [confidenceLevel] Activity confidenceLevel
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an Activity.
         * @memberof ingress
         * @interface IActivity
         * @augments ingress.Activity.$Properties
         * @deprecated Use ingress.Activity.$Properties instead.
         */

        /**
         * Shape of an Activity.
         * @typedef {ingress.Activity.$Properties} ingress.Activity.$Shape
         */

        /**
         * Constructs a new Activity.
         * @memberof ingress
         * @classdesc Represents an Activity.
         * @constructor
         * @param {ingress.Activity.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Activity = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Activity timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Activity
         * @instance
         */
        Activity.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Activity type.
         * @member {string} type
         * @memberof ingress.Activity
         * @instance
         */
        Activity.prototype.type = "";

        /**
         * Activity confidenceLevel.
         * @member {string} confidenceLevel
         * @memberof ingress.Activity
         * @instance
         */
        Activity.prototype.confidenceLevel = "";

        /**
         * Creates a new Activity instance using the specified properties.
         * @function create
         * @memberof ingress.Activity
         * @static
         * @param {ingress.Activity.$Properties=} [properties] Properties to set
         * @returns {ingress.Activity} Activity instance
         * @type {{
         *   (properties: ingress.Activity.$Shape): ingress.Activity & ingress.Activity.$Shape;
         *   (properties?: ingress.Activity.$Properties): ingress.Activity;
         * }}
         */
        Activity.create = function(properties) {
            return new Activity(properties);
        };

        /**
         * Encodes the specified Activity message. Does not implicitly {@link ingress.Activity.verify|verify} messages.
         * @function encode
         * @memberof ingress.Activity
         * @static
         * @param {ingress.Activity.$Properties} message Activity message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Activity.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.type);
            if (message.confidenceLevel != null && $Object.hasOwnProperty.call(message, "confidenceLevel") && message.confidenceLevel !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.confidenceLevel);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an Activity message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Activity
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Activity & ingress.Activity.$Shape} Activity
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Activity.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Activity();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.confidenceLevel = value;
                        else
                            delete message.confidenceLevel;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an Activity message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Activity
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Activity} Activity
         */
        Activity.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Activity)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Activity: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Activity();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            if (object.confidenceLevel != null)
                if (typeof object.confidenceLevel !== "string" || object.confidenceLevel.length)
                    message.confidenceLevel = $String(object.confidenceLevel);
            return message;
        };

        /**
         * Creates a plain object from an Activity message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Activity
         * @static
         * @param {ingress.Activity} message Activity
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Activity.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.type = "";
                object.confidenceLevel = "";
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            if (message.confidenceLevel != null && $Object.hasOwnProperty.call(message, "confidenceLevel"))
                object.confidenceLevel = message.confidenceLevel;
            return object;
        };

        /**
         * Converts this Activity to JSON.
         * @function toJSON
         * @memberof ingress.Activity
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Activity.prototype.toJSON = function() {
            return Activity.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Activity;
    })();

    ingress.Configuration = (function() {

        /**
         * Properties of a Configuration.
         * @typedef {Object} ingress.Configuration.$Properties
         * @property {string|null} [uuid] Configuration uuid
         * @property {boolean|null} [enabled] Configuration enabled
         * @property {number|Long|null} [cadence] Configuration cadence
         * @property {Array.<string>|null} [useSensors] Configuration useSensors
         * @property {number|Long|null} [eventTtl] Configuration eventTtl
         * @property {number|Long|null} [maxStorage] Configuration maxStorage
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Configuration.
         * @memberof ingress
         * @interface IConfiguration
         * @augments ingress.Configuration.$Properties
         * @deprecated Use ingress.Configuration.$Properties instead.
         */

        /**
         * Shape of a Configuration.
         * @typedef {ingress.Configuration.$Properties} ingress.Configuration.$Shape
         */

        /**
         * Constructs a new Configuration.
         * @memberof ingress
         * @classdesc Represents a Configuration.
         * @constructor
         * @param {ingress.Configuration.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Configuration = function (properties) {
            this.useSensors = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Configuration uuid.
         * @member {string} uuid
         * @memberof ingress.Configuration
         * @instance
         */
        Configuration.prototype.uuid = "";

        /**
         * Configuration enabled.
         * @member {boolean} enabled
         * @memberof ingress.Configuration
         * @instance
         */
        Configuration.prototype.enabled = false;

        /**
         * Configuration cadence.
         * @member {number|Long} cadence
         * @memberof ingress.Configuration
         * @instance
         */
        Configuration.prototype.cadence = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Configuration useSensors.
         * @member {Array.<string>} useSensors
         * @memberof ingress.Configuration
         * @instance
         */
        Configuration.prototype.useSensors = $util.emptyArray;

        /**
         * Configuration eventTtl.
         * @member {number|Long} eventTtl
         * @memberof ingress.Configuration
         * @instance
         */
        Configuration.prototype.eventTtl = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Configuration maxStorage.
         * @member {number|Long} maxStorage
         * @memberof ingress.Configuration
         * @instance
         */
        Configuration.prototype.maxStorage = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Creates a new Configuration instance using the specified properties.
         * @function create
         * @memberof ingress.Configuration
         * @static
         * @param {ingress.Configuration.$Properties=} [properties] Properties to set
         * @returns {ingress.Configuration} Configuration instance
         * @type {{
         *   (properties: ingress.Configuration.$Shape): ingress.Configuration & ingress.Configuration.$Shape;
         *   (properties?: ingress.Configuration.$Properties): ingress.Configuration;
         * }}
         */
        Configuration.create = function(properties) {
            return new Configuration(properties);
        };

        /**
         * Encodes the specified Configuration message. Does not implicitly {@link ingress.Configuration.verify|verify} messages.
         * @function encode
         * @memberof ingress.Configuration
         * @static
         * @param {ingress.Configuration.$Properties} message Configuration message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Configuration.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.uuid != null && $Object.hasOwnProperty.call(message, "uuid") && message.uuid !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.uuid);
            if (message.enabled != null && $Object.hasOwnProperty.call(message, "enabled") && message.enabled !== false)
                writer.uint32(/* id 2, wireType 0 =*/16).bool(message.enabled);
            if (message.cadence != null && $Object.hasOwnProperty.call(message, "cadence") && (typeof message.cadence === "object" ? message.cadence.low || message.cadence.high : message.cadence !== 0))
                writer.uint32(/* id 3, wireType 0 =*/24).int64(message.cadence);
            if (message.useSensors != null && message.useSensors.length)
                for (let i = 0; i < message.useSensors.length; ++i)
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.useSensors[i]);
            if (message.eventTtl != null && $Object.hasOwnProperty.call(message, "eventTtl") && (typeof message.eventTtl === "object" ? message.eventTtl.low || message.eventTtl.high : message.eventTtl !== 0))
                writer.uint32(/* id 5, wireType 0 =*/40).int64(message.eventTtl);
            if (message.maxStorage != null && $Object.hasOwnProperty.call(message, "maxStorage") && (typeof message.maxStorage === "object" ? message.maxStorage.low || message.maxStorage.high : message.maxStorage !== 0))
                writer.uint32(/* id 6, wireType 0 =*/48).int64(message.maxStorage);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Configuration message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Configuration
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Configuration & ingress.Configuration.$Shape} Configuration
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Configuration.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Configuration();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.uuid = value;
                        else
                            delete message.uuid;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.enabled = value;
                        else
                            delete message.enabled;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.cadence = value;
                        else
                            delete message.cadence;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (!(message.useSensors && message.useSensors.length))
                            message.useSensors = [];
                        message.useSensors.push(reader.stringVerify());
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.eventTtl = value;
                        else
                            delete message.eventTtl;
                        continue;
                    }
                case 6: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.maxStorage = value;
                        else
                            delete message.maxStorage;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Configuration message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Configuration
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Configuration} Configuration
         */
        Configuration.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Configuration)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Configuration: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Configuration();
            if (object.uuid != null)
                if (typeof object.uuid !== "string" || object.uuid.length)
                    message.uuid = $String(object.uuid);
            if (object.enabled != null)
                if (object.enabled)
                    message.enabled = $Boolean(object.enabled);
            if (object.cadence != null)
                if (typeof object.cadence === "object" ? object.cadence.low || object.cadence.high : $Number(object.cadence) !== 0)
                    if ($util.Long)
                        message.cadence = $util.Long.fromValue(object.cadence, false);
                    else if (typeof object.cadence === "string")
                        message.cadence = $parseInt(object.cadence, 10);
                    else if (typeof object.cadence === "number")
                        message.cadence = object.cadence;
                    else if (typeof object.cadence === "object")
                        message.cadence = new $util.LongBits(object.cadence.low >>> 0, object.cadence.high >>> 0).toNumber();
            if (object.useSensors) {
                if (!$Array.isArray(object.useSensors))
                    throw $TypeError(".ingress.Configuration.useSensors: array expected");
                message.useSensors = $Array(object.useSensors.length);
                for (let i = 0; i < object.useSensors.length; ++i)
                    message.useSensors[i] = $String(object.useSensors[i]);
            }
            if (object.eventTtl != null)
                if (typeof object.eventTtl === "object" ? object.eventTtl.low || object.eventTtl.high : $Number(object.eventTtl) !== 0)
                    if ($util.Long)
                        message.eventTtl = $util.Long.fromValue(object.eventTtl, false);
                    else if (typeof object.eventTtl === "string")
                        message.eventTtl = $parseInt(object.eventTtl, 10);
                    else if (typeof object.eventTtl === "number")
                        message.eventTtl = object.eventTtl;
                    else if (typeof object.eventTtl === "object")
                        message.eventTtl = new $util.LongBits(object.eventTtl.low >>> 0, object.eventTtl.high >>> 0).toNumber();
            if (object.maxStorage != null)
                if (typeof object.maxStorage === "object" ? object.maxStorage.low || object.maxStorage.high : $Number(object.maxStorage) !== 0)
                    if ($util.Long)
                        message.maxStorage = $util.Long.fromValue(object.maxStorage, false);
                    else if (typeof object.maxStorage === "string")
                        message.maxStorage = $parseInt(object.maxStorage, 10);
                    else if (typeof object.maxStorage === "number")
                        message.maxStorage = object.maxStorage;
                    else if (typeof object.maxStorage === "object")
                        message.maxStorage = new $util.LongBits(object.maxStorage.low >>> 0, object.maxStorage.high >>> 0).toNumber();
            return message;
        };

        /**
         * Creates a plain object from a Configuration message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Configuration
         * @static
         * @param {ingress.Configuration} message Configuration
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Configuration.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.useSensors = [];
            if (options.defaults) {
                object.uuid = "";
                object.enabled = false;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.cadence = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.cadence = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.eventTtl = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.eventTtl = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.maxStorage = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.maxStorage = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
            }
            if (message.uuid != null && $Object.hasOwnProperty.call(message, "uuid"))
                object.uuid = message.uuid;
            if (message.enabled != null && $Object.hasOwnProperty.call(message, "enabled"))
                object.enabled = message.enabled;
            if (message.cadence != null && $Object.hasOwnProperty.call(message, "cadence"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.cadence = typeof message.cadence === "number" ? $BigInt(message.cadence) : $util.Long.fromBits(message.cadence.low >>> 0, message.cadence.high >>> 0, false).toBigInt();
                else if (typeof message.cadence === "number")
                    object.cadence = options.longs === $String ? $String(message.cadence) : message.cadence;
                else
                    object.cadence = options.longs === $String ? $util.Long.prototype.toString.call(message.cadence) : options.longs === $Number ? new $util.LongBits(message.cadence.low >>> 0, message.cadence.high >>> 0).toNumber() : message.cadence;
            if (message.useSensors && message.useSensors.length) {
                object.useSensors = $Array(message.useSensors.length);
                for (let j = 0; j < message.useSensors.length; ++j)
                    object.useSensors[j] = message.useSensors[j];
            }
            if (message.eventTtl != null && $Object.hasOwnProperty.call(message, "eventTtl"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.eventTtl = typeof message.eventTtl === "number" ? $BigInt(message.eventTtl) : $util.Long.fromBits(message.eventTtl.low >>> 0, message.eventTtl.high >>> 0, false).toBigInt();
                else if (typeof message.eventTtl === "number")
                    object.eventTtl = options.longs === $String ? $String(message.eventTtl) : message.eventTtl;
                else
                    object.eventTtl = options.longs === $String ? $util.Long.prototype.toString.call(message.eventTtl) : options.longs === $Number ? new $util.LongBits(message.eventTtl.low >>> 0, message.eventTtl.high >>> 0).toNumber() : message.eventTtl;
            if (message.maxStorage != null && $Object.hasOwnProperty.call(message, "maxStorage"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.maxStorage = typeof message.maxStorage === "number" ? $BigInt(message.maxStorage) : $util.Long.fromBits(message.maxStorage.low >>> 0, message.maxStorage.high >>> 0, false).toBigInt();
                else if (typeof message.maxStorage === "number")
                    object.maxStorage = options.longs === $String ? $String(message.maxStorage) : message.maxStorage;
                else
                    object.maxStorage = options.longs === $String ? $util.Long.prototype.toString.call(message.maxStorage) : options.longs === $Number ? new $util.LongBits(message.maxStorage.low >>> 0, message.maxStorage.high >>> 0).toNumber() : message.maxStorage;
            return object;
        };

        /**
         * Converts this Configuration to JSON.
         * @function toJSON
         * @memberof ingress.Configuration
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Configuration.prototype.toJSON = function() {
            return Configuration.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Configuration;
    })();

    ingress.Property = (function() {

        /**
         * Properties of a Property.
         * @typedef {Object} ingress.Property.$Properties
         * @property {number|Long|null} [timestamp] Property timestamp
         * @property {string|null} [manufacturer] Property manufacturer
         * @property {string|null} [model] Property model
         * @property {string|null} [os] Property os
         * @property {string|null} [osVersion] Property osVersion
         * @property {string|null} [softwareVersion] Property softwareVersion
         * @property {string|null} [type] Property type
         * @property {Array.<string>|null} [sensors] Property sensors
         * @property {string|null} [name] Property name
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Property.
         * @memberof ingress
         * @interface IProperty
         * @augments ingress.Property.$Properties
         * @deprecated Use ingress.Property.$Properties instead.
         */

        /**
         * Shape of a Property.
         * @typedef {ingress.Property.$Properties} ingress.Property.$Shape
         */

        /**
         * Constructs a new Property.
         * @memberof ingress
         * @classdesc Represents a Property.
         * @constructor
         * @param {ingress.Property.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Property = function (properties) {
            this.sensors = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Property timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Property manufacturer.
         * @member {string} manufacturer
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.manufacturer = "";

        /**
         * Property model.
         * @member {string} model
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.model = "";

        /**
         * Property os.
         * @member {string} os
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.os = "";

        /**
         * Property osVersion.
         * @member {string} osVersion
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.osVersion = "";

        /**
         * Property softwareVersion.
         * @member {string} softwareVersion
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.softwareVersion = "";

        /**
         * Property type.
         * @member {string} type
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.type = "";

        /**
         * Property sensors.
         * @member {Array.<string>} sensors
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.sensors = $util.emptyArray;

        /**
         * Property name.
         * @member {string} name
         * @memberof ingress.Property
         * @instance
         */
        Property.prototype.name = "";

        /**
         * Creates a new Property instance using the specified properties.
         * @function create
         * @memberof ingress.Property
         * @static
         * @param {ingress.Property.$Properties=} [properties] Properties to set
         * @returns {ingress.Property} Property instance
         * @type {{
         *   (properties: ingress.Property.$Shape): ingress.Property & ingress.Property.$Shape;
         *   (properties?: ingress.Property.$Properties): ingress.Property;
         * }}
         */
        Property.create = function(properties) {
            return new Property(properties);
        };

        /**
         * Encodes the specified Property message. Does not implicitly {@link ingress.Property.verify|verify} messages.
         * @function encode
         * @memberof ingress.Property
         * @static
         * @param {ingress.Property.$Properties} message Property message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Property.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.manufacturer != null && $Object.hasOwnProperty.call(message, "manufacturer") && message.manufacturer !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.manufacturer);
            if (message.model != null && $Object.hasOwnProperty.call(message, "model") && message.model !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.model);
            if (message.os != null && $Object.hasOwnProperty.call(message, "os") && message.os !== "")
                writer.uint32(/* id 4, wireType 2 =*/34).string(message.os);
            if (message.osVersion != null && $Object.hasOwnProperty.call(message, "osVersion") && message.osVersion !== "")
                writer.uint32(/* id 5, wireType 2 =*/42).string(message.osVersion);
            if (message.softwareVersion != null && $Object.hasOwnProperty.call(message, "softwareVersion") && message.softwareVersion !== "")
                writer.uint32(/* id 6, wireType 2 =*/50).string(message.softwareVersion);
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(/* id 7, wireType 2 =*/58).string(message.type);
            if (message.sensors != null && message.sensors.length)
                for (let i = 0; i < message.sensors.length; ++i)
                    writer.uint32(/* id 8, wireType 2 =*/66).string(message.sensors[i]);
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 9, wireType 2 =*/74).string(message.name);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Property message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Property
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Property & ingress.Property.$Shape} Property
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Property.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Property();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.manufacturer = value;
                        else
                            delete message.manufacturer;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.model = value;
                        else
                            delete message.model;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.os = value;
                        else
                            delete message.os;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.osVersion = value;
                        else
                            delete message.osVersion;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.softwareVersion = value;
                        else
                            delete message.softwareVersion;
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if (!(message.sensors && message.sensors.length))
                            message.sensors = [];
                        message.sensors.push(reader.stringVerify());
                        continue;
                    }
                case 9: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Property message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Property
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Property} Property
         */
        Property.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Property)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Property: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Property();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.manufacturer != null)
                if (typeof object.manufacturer !== "string" || object.manufacturer.length)
                    message.manufacturer = $String(object.manufacturer);
            if (object.model != null)
                if (typeof object.model !== "string" || object.model.length)
                    message.model = $String(object.model);
            if (object.os != null)
                if (typeof object.os !== "string" || object.os.length)
                    message.os = $String(object.os);
            if (object.osVersion != null)
                if (typeof object.osVersion !== "string" || object.osVersion.length)
                    message.osVersion = $String(object.osVersion);
            if (object.softwareVersion != null)
                if (typeof object.softwareVersion !== "string" || object.softwareVersion.length)
                    message.softwareVersion = $String(object.softwareVersion);
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            if (object.sensors) {
                if (!$Array.isArray(object.sensors))
                    throw $TypeError(".ingress.Property.sensors: array expected");
                message.sensors = $Array(object.sensors.length);
                for (let i = 0; i < object.sensors.length; ++i)
                    message.sensors[i] = $String(object.sensors[i]);
            }
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            return message;
        };

        /**
         * Creates a plain object from a Property message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Property
         * @static
         * @param {ingress.Property} message Property
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Property.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.sensors = [];
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.manufacturer = "";
                object.model = "";
                object.os = "";
                object.osVersion = "";
                object.softwareVersion = "";
                object.type = "";
                object.name = "";
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.manufacturer != null && $Object.hasOwnProperty.call(message, "manufacturer"))
                object.manufacturer = message.manufacturer;
            if (message.model != null && $Object.hasOwnProperty.call(message, "model"))
                object.model = message.model;
            if (message.os != null && $Object.hasOwnProperty.call(message, "os"))
                object.os = message.os;
            if (message.osVersion != null && $Object.hasOwnProperty.call(message, "osVersion"))
                object.osVersion = message.osVersion;
            if (message.softwareVersion != null && $Object.hasOwnProperty.call(message, "softwareVersion"))
                object.softwareVersion = message.softwareVersion;
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            if (message.sensors && message.sensors.length) {
                object.sensors = $Array(message.sensors.length);
                for (let j = 0; j < message.sensors.length; ++j)
                    object.sensors[j] = message.sensors[j];
            }
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            return object;
        };

        /**
         * Converts this Property to JSON.
         * @function toJSON
         * @memberof ingress.Property
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Property.prototype.toJSON = function() {
            return Property.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Property;
    })();

    ingress.Push = (function() {

        /**
         * Properties of a Push.
         * @typedef {Object} ingress.Push.$Properties
         * @property {number|Long|null} [timestamp] Push timestamp
         * @property {string|null} [token] Push token
         * @property {string|null} [type] Push type
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Push.
         * @memberof ingress
         * @interface IPush
         * @augments ingress.Push.$Properties
         * @deprecated Use ingress.Push.$Properties instead.
         */

        /**
         * Shape of a Push.
         * @typedef {ingress.Push.$Properties} ingress.Push.$Shape
         */

        /**
         * Constructs a new Push.
         * @memberof ingress
         * @classdesc Represents a Push.
         * @constructor
         * @param {ingress.Push.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Push = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Push timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Push
         * @instance
         */
        Push.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Push token.
         * @member {string} token
         * @memberof ingress.Push
         * @instance
         */
        Push.prototype.token = "";

        /**
         * Push type.
         * @member {string} type
         * @memberof ingress.Push
         * @instance
         */
        Push.prototype.type = "";

        /**
         * Creates a new Push instance using the specified properties.
         * @function create
         * @memberof ingress.Push
         * @static
         * @param {ingress.Push.$Properties=} [properties] Properties to set
         * @returns {ingress.Push} Push instance
         * @type {{
         *   (properties: ingress.Push.$Shape): ingress.Push & ingress.Push.$Shape;
         *   (properties?: ingress.Push.$Properties): ingress.Push;
         * }}
         */
        Push.create = function(properties) {
            return new Push(properties);
        };

        /**
         * Encodes the specified Push message. Does not implicitly {@link ingress.Push.verify|verify} messages.
         * @function encode
         * @memberof ingress.Push
         * @static
         * @param {ingress.Push.$Properties} message Push message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Push.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.token != null && $Object.hasOwnProperty.call(message, "token") && message.token !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.token);
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.type);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Push message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Push
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Push & ingress.Push.$Shape} Push
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Push.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Push();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.token = value;
                        else
                            delete message.token;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Push message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Push
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Push} Push
         */
        Push.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Push)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Push: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Push();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.token != null)
                if (typeof object.token !== "string" || object.token.length)
                    message.token = $String(object.token);
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            return message;
        };

        /**
         * Creates a plain object from a Push message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Push
         * @static
         * @param {ingress.Push} message Push
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Push.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.token = "";
                object.type = "";
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.token != null && $Object.hasOwnProperty.call(message, "token"))
                object.token = message.token;
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            return object;
        };

        /**
         * Converts this Push to JSON.
         * @function toJSON
         * @memberof ingress.Push
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Push.prototype.toJSON = function() {
            return Push.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Push;
    })();

    ingress.Error = (function() {

        /**
         * Properties of an Error.
         * @typedef {Object} ingress.Error.$Properties
         * @property {number|null} [errorCode] Error errorCode
         * @property {string|null} [errorMessage] Error errorMessage
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an Error.
         * @memberof ingress
         * @interface IError
         * @augments ingress.Error.$Properties
         * @deprecated Use ingress.Error.$Properties instead.
         */

        /**
         * Shape of an Error.
         * @typedef {ingress.Error.$Properties} ingress.Error.$Shape
         */

        /**
         * Constructs a new Error.
         * @memberof ingress
         * @classdesc Represents an Error.
         * @constructor
         * @param {ingress.Error.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Error = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Error errorCode.
         * @member {number} errorCode
         * @memberof ingress.Error
         * @instance
         */
        Error.prototype.errorCode = 0;

        /**
         * Error errorMessage.
         * @member {string} errorMessage
         * @memberof ingress.Error
         * @instance
         */
        Error.prototype.errorMessage = "";

        /**
         * Creates a new Error instance using the specified properties.
         * @function create
         * @memberof ingress.Error
         * @static
         * @param {ingress.Error.$Properties=} [properties] Properties to set
         * @returns {ingress.Error} Error instance
         * @type {{
         *   (properties: ingress.Error.$Shape): ingress.Error & ingress.Error.$Shape;
         *   (properties?: ingress.Error.$Properties): ingress.Error;
         * }}
         */
        Error.create = function(properties) {
            return new Error(properties);
        };

        /**
         * Encodes the specified Error message. Does not implicitly {@link ingress.Error.verify|verify} messages.
         * @function encode
         * @memberof ingress.Error
         * @static
         * @param {ingress.Error.$Properties} message Error message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Error.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.errorCode != null && $Object.hasOwnProperty.call(message, "errorCode") && message.errorCode !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).int32(message.errorCode);
            if (message.errorMessage != null && $Object.hasOwnProperty.call(message, "errorMessage") && message.errorMessage !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.errorMessage);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an Error message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Error
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Error & ingress.Error.$Shape} Error
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Error.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Error();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.errorCode = value;
                        else
                            delete message.errorCode;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.errorMessage = value;
                        else
                            delete message.errorMessage;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an Error message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Error
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Error} Error
         */
        Error.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Error)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Error: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Error();
            if (object.errorCode != null)
                if ($Number(object.errorCode) !== 0)
                    message.errorCode = object.errorCode | 0;
            if (object.errorMessage != null)
                if (typeof object.errorMessage !== "string" || object.errorMessage.length)
                    message.errorMessage = $String(object.errorMessage);
            return message;
        };

        /**
         * Creates a plain object from an Error message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Error
         * @static
         * @param {ingress.Error} message Error
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Error.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.errorCode = 0;
                object.errorMessage = "";
            }
            if (message.errorCode != null && $Object.hasOwnProperty.call(message, "errorCode"))
                object.errorCode = message.errorCode;
            if (message.errorMessage != null && $Object.hasOwnProperty.call(message, "errorMessage"))
                object.errorMessage = message.errorMessage;
            return object;
        };

        /**
         * Converts this Error to JSON.
         * @function toJSON
         * @memberof ingress.Error
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Error.prototype.toJSON = function() {
            return Error.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Error;
    })();

    ingress.Event = (function() {

        /**
         * Properties of an Event.
         * @typedef {Object} ingress.Event.$Properties
         * @property {number|Long|null} [timestamp] Event timestamp
         * @property {Array.<ingress.Location.$Properties>|null} [locations] Event locations
         * @property {Array.<ingress.Wifi.$Properties>|null} [wifis] Event wifis
         * @property {Array.<ingress.IBeacon.$Properties>|null} [ibeacons] Event ibeacons
         * @property {Array.<ingress.Power.$Properties>|null} [powers] Event powers
         * @property {Array.<ingress.Activity.$Properties>|null} [activities] Event activities
         * @property {ingress.Configuration.$Properties|null} [configurations] Event configurations
         * @property {ingress.Property.$Properties|null} [properties] Event properties
         * @property {ingress.Push.$Properties|null} [push] Event push
         * @property {Object.<string,string>|null} [attributes] Event attributes
         * @property {Array.<ingress.Error.$Properties>|null} [error] Event error
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an Event.
         * @memberof ingress
         * @interface IEvent
         * @augments ingress.Event.$Properties
         * @deprecated Use ingress.Event.$Properties instead.
         */

        /**
         * Shape of an Event.
         * @typedef {ingress.Event.$Properties} ingress.Event.$Shape
         */

        /**
         * Constructs a new Event.
         * @memberof ingress
         * @classdesc Represents an Event.
         * @constructor
         * @param {ingress.Event.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Event = function (properties) {
            this.locations = [];
            this.wifis = [];
            this.ibeacons = [];
            this.powers = [];
            this.activities = [];
            this.attributes = {};
            this.error = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Event timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Event locations.
         * @member {Array.<ingress.Location.$Properties>} locations
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.locations = $util.emptyArray;

        /**
         * Event wifis.
         * @member {Array.<ingress.Wifi.$Properties>} wifis
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.wifis = $util.emptyArray;

        /**
         * Event ibeacons.
         * @member {Array.<ingress.IBeacon.$Properties>} ibeacons
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.ibeacons = $util.emptyArray;

        /**
         * Event powers.
         * @member {Array.<ingress.Power.$Properties>} powers
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.powers = $util.emptyArray;

        /**
         * Event activities.
         * @member {Array.<ingress.Activity.$Properties>} activities
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.activities = $util.emptyArray;

        /**
         * Event configurations.
         * @member {ingress.Configuration.$Properties|null|undefined} configurations
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.configurations = null;

        /**
         * Event properties.
         * @member {ingress.Property.$Properties|null|undefined} properties
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.properties = null;

        /**
         * Event push.
         * @member {ingress.Push.$Properties|null|undefined} push
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.push = null;

        /**
         * Event attributes.
         * @member {Object.<string,string>} attributes
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.attributes = $util.emptyObject;

        /**
         * Event error.
         * @member {Array.<ingress.Error.$Properties>} error
         * @memberof ingress.Event
         * @instance
         */
        Event.prototype.error = $util.emptyArray;

        /**
         * Creates a new Event instance using the specified properties.
         * @function create
         * @memberof ingress.Event
         * @static
         * @param {ingress.Event.$Properties=} [properties] Properties to set
         * @returns {ingress.Event} Event instance
         * @type {{
         *   (properties: ingress.Event.$Shape): ingress.Event & ingress.Event.$Shape;
         *   (properties?: ingress.Event.$Properties): ingress.Event;
         * }}
         */
        Event.create = function(properties) {
            return new Event(properties);
        };

        /**
         * Encodes the specified Event message. Does not implicitly {@link ingress.Event.verify|verify} messages.
         * @function encode
         * @memberof ingress.Event
         * @static
         * @param {ingress.Event.$Properties} message Event message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Event.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.timestamp);
            if (message.locations != null && message.locations.length)
                for (let i = 0; i < message.locations.length; ++i)
                    $root.ingress.Location.encode(message.locations[i], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.wifis != null && message.wifis.length)
                for (let i = 0; i < message.wifis.length; ++i)
                    $root.ingress.Wifi.encode(message.wifis[i], writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.ibeacons != null && message.ibeacons.length)
                for (let i = 0; i < message.ibeacons.length; ++i)
                    $root.ingress.IBeacon.encode(message.ibeacons[i], writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.powers != null && message.powers.length)
                for (let i = 0; i < message.powers.length; ++i)
                    $root.ingress.Power.encode(message.powers[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.activities != null && message.activities.length)
                for (let i = 0; i < message.activities.length; ++i)
                    $root.ingress.Activity.encode(message.activities[i], writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.configurations != null && $Object.hasOwnProperty.call(message, "configurations"))
                $root.ingress.Configuration.encode(message.configurations, writer.uint32(/* id 7, wireType 2 =*/58).fork(), _depth + 1).ldelim();
            if (message.properties != null && $Object.hasOwnProperty.call(message, "properties"))
                $root.ingress.Property.encode(message.properties, writer.uint32(/* id 8, wireType 2 =*/66).fork(), _depth + 1).ldelim();
            if (message.push != null && $Object.hasOwnProperty.call(message, "push"))
                $root.ingress.Push.encode(message.push, writer.uint32(/* id 9, wireType 2 =*/74).fork(), _depth + 1).ldelim();
            if (message.attributes != null && $Object.hasOwnProperty.call(message, "attributes"))
                for (let keys = $Object.keys(message.attributes), i = 0; i < keys.length; ++i)
                    writer.uint32(/* id 10, wireType 2 =*/82).fork().uint32(/* id 1, wireType 2 =*/10).string(keys[i]).uint32(/* id 2, wireType 2 =*/18).string(message.attributes[keys[i]]).ldelim();
            if (message.error != null && message.error.length)
                for (let i = 0; i < message.error.length; ++i)
                    $root.ingress.Error.encode(message.error[i], writer.uint32(/* id 11, wireType 2 =*/90).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an Event message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Event
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Event & ingress.Event.$Shape} Event
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Event.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, key, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Event();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if (!(message.locations && message.locations.length))
                            message.locations = [];
                        message.locations.push($root.ingress.Location.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (!(message.wifis && message.wifis.length))
                            message.wifis = [];
                        message.wifis.push($root.ingress.Wifi.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (!(message.ibeacons && message.ibeacons.length))
                            message.ibeacons = [];
                        message.ibeacons.push($root.ingress.IBeacon.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.powers && message.powers.length))
                            message.powers = [];
                        message.powers.push($root.ingress.Power.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if (!(message.activities && message.activities.length))
                            message.activities = [];
                        message.activities.push($root.ingress.Activity.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        message.configurations = $root.ingress.Configuration.decode(reader, reader.size(), $undefined, _depth + 1, message.configurations);
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        message.properties = $root.ingress.Property.decode(reader, reader.size(), $undefined, _depth + 1, message.properties);
                        continue;
                    }
                case 9: {
                        if (wireType !== 2)
                            break;
                        message.push = $root.ingress.Push.decode(reader, reader.size(), $undefined, _depth + 1, message.push);
                        continue;
                    }
                case 10: {
                        if (wireType !== 2)
                            break;
                        if (message.attributes === $util.emptyObject)
                            message.attributes = {};
                        let end2 = reader.size() + reader.pos;
                        if (end2 > reader.len)
                            throw $RangeError("index out of range");
                        reader.len = end2;
                        key = "";
                        value = "";
                        while (reader.pos < end2) {
                            let tag2 = reader.tag();
                            wireType = tag2 & 7;
                            switch (tag2 >>>= 3) {
                            case 1:
                                if (wireType !== 2)
                                    break;
                                key = reader.stringVerify();
                                continue;
                            case 2:
                                if (wireType !== 2)
                                    break;
                                value = reader.stringVerify();
                                continue;
                            }
                            reader.skipType(wireType, _depth, tag2);
                        }
                        if (reader.pos !== end2)
                            throw $RangeError("index out of range");
                        reader.len = end;
                        if (key === "__proto__")
                            $util.makeProp(message.attributes, key);
                        message.attributes[key] = value;
                        continue;
                    }
                case 11: {
                        if (wireType !== 2)
                            break;
                        if (!(message.error && message.error.length))
                            message.error = [];
                        message.error.push($root.ingress.Error.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an Event message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Event
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Event} Event
         */
        Event.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Event)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Event: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Event();
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.locations) {
                if (!$Array.isArray(object.locations))
                    throw $TypeError(".ingress.Event.locations: array expected");
                message.locations = $Array(object.locations.length);
                for (let i = 0; i < object.locations.length; ++i) {
                    if (!$util.isObject(object.locations[i]))
                        throw $TypeError(".ingress.Event.locations: object expected");
                    message.locations[i] = $root.ingress.Location.fromObject(object.locations[i], _depth + 1);
                }
            }
            if (object.wifis) {
                if (!$Array.isArray(object.wifis))
                    throw $TypeError(".ingress.Event.wifis: array expected");
                message.wifis = $Array(object.wifis.length);
                for (let i = 0; i < object.wifis.length; ++i) {
                    if (!$util.isObject(object.wifis[i]))
                        throw $TypeError(".ingress.Event.wifis: object expected");
                    message.wifis[i] = $root.ingress.Wifi.fromObject(object.wifis[i], _depth + 1);
                }
            }
            if (object.ibeacons) {
                if (!$Array.isArray(object.ibeacons))
                    throw $TypeError(".ingress.Event.ibeacons: array expected");
                message.ibeacons = $Array(object.ibeacons.length);
                for (let i = 0; i < object.ibeacons.length; ++i) {
                    if (!$util.isObject(object.ibeacons[i]))
                        throw $TypeError(".ingress.Event.ibeacons: object expected");
                    message.ibeacons[i] = $root.ingress.IBeacon.fromObject(object.ibeacons[i], _depth + 1);
                }
            }
            if (object.powers) {
                if (!$Array.isArray(object.powers))
                    throw $TypeError(".ingress.Event.powers: array expected");
                message.powers = $Array(object.powers.length);
                for (let i = 0; i < object.powers.length; ++i) {
                    if (!$util.isObject(object.powers[i]))
                        throw $TypeError(".ingress.Event.powers: object expected");
                    message.powers[i] = $root.ingress.Power.fromObject(object.powers[i], _depth + 1);
                }
            }
            if (object.activities) {
                if (!$Array.isArray(object.activities))
                    throw $TypeError(".ingress.Event.activities: array expected");
                message.activities = $Array(object.activities.length);
                for (let i = 0; i < object.activities.length; ++i) {
                    if (!$util.isObject(object.activities[i]))
                        throw $TypeError(".ingress.Event.activities: object expected");
                    message.activities[i] = $root.ingress.Activity.fromObject(object.activities[i], _depth + 1);
                }
            }
            if (object.configurations != null) {
                if (!$util.isObject(object.configurations))
                    throw $TypeError(".ingress.Event.configurations: object expected");
                message.configurations = $root.ingress.Configuration.fromObject(object.configurations, _depth + 1);
            }
            if (object.properties != null) {
                if (!$util.isObject(object.properties))
                    throw $TypeError(".ingress.Event.properties: object expected");
                message.properties = $root.ingress.Property.fromObject(object.properties, _depth + 1);
            }
            if (object.push != null) {
                if (!$util.isObject(object.push))
                    throw $TypeError(".ingress.Event.push: object expected");
                message.push = $root.ingress.Push.fromObject(object.push, _depth + 1);
            }
            if (object.attributes) {
                if (!$util.isObject(object.attributes))
                    throw $TypeError(".ingress.Event.attributes: object expected");
                message.attributes = {};
                for (let keys = $Object.keys(object.attributes), i = 0; i < keys.length; ++i) {
                    if (keys[i] === "__proto__")
                        $util.makeProp(message.attributes, keys[i]);
                    message.attributes[keys[i]] = $String(object.attributes[keys[i]]);
                }
            }
            if (object.error) {
                if (!$Array.isArray(object.error))
                    throw $TypeError(".ingress.Event.error: array expected");
                message.error = $Array(object.error.length);
                for (let i = 0; i < object.error.length; ++i) {
                    if (!$util.isObject(object.error[i]))
                        throw $TypeError(".ingress.Event.error: object expected");
                    message.error[i] = $root.ingress.Error.fromObject(object.error[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from an Event message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Event
         * @static
         * @param {ingress.Event} message Event
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Event.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.locations = [];
                object.wifis = [];
                object.ibeacons = [];
                object.powers = [];
                object.activities = [];
                object.error = [];
            }
            if (options.objects || options.defaults)
                object.attributes = {};
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.configurations = null;
                object.properties = null;
                object.push = null;
            }
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.locations && message.locations.length) {
                object.locations = $Array(message.locations.length);
                for (let j = 0; j < message.locations.length; ++j)
                    object.locations[j] = $root.ingress.Location.toObject(message.locations[j], options, _depth + 1);
            }
            if (message.wifis && message.wifis.length) {
                object.wifis = $Array(message.wifis.length);
                for (let j = 0; j < message.wifis.length; ++j)
                    object.wifis[j] = $root.ingress.Wifi.toObject(message.wifis[j], options, _depth + 1);
            }
            if (message.ibeacons && message.ibeacons.length) {
                object.ibeacons = $Array(message.ibeacons.length);
                for (let j = 0; j < message.ibeacons.length; ++j)
                    object.ibeacons[j] = $root.ingress.IBeacon.toObject(message.ibeacons[j], options, _depth + 1);
            }
            if (message.powers && message.powers.length) {
                object.powers = $Array(message.powers.length);
                for (let j = 0; j < message.powers.length; ++j)
                    object.powers[j] = $root.ingress.Power.toObject(message.powers[j], options, _depth + 1);
            }
            if (message.activities && message.activities.length) {
                object.activities = $Array(message.activities.length);
                for (let j = 0; j < message.activities.length; ++j)
                    object.activities[j] = $root.ingress.Activity.toObject(message.activities[j], options, _depth + 1);
            }
            if (message.configurations != null && $Object.hasOwnProperty.call(message, "configurations"))
                object.configurations = $root.ingress.Configuration.toObject(message.configurations, options, _depth + 1);
            if (message.properties != null && $Object.hasOwnProperty.call(message, "properties"))
                object.properties = $root.ingress.Property.toObject(message.properties, options, _depth + 1);
            if (message.push != null && $Object.hasOwnProperty.call(message, "push"))
                object.push = $root.ingress.Push.toObject(message.push, options, _depth + 1);
            let keys2;
            if (message.attributes && (keys2 = $Object.keys(message.attributes)).length) {
                object.attributes = {};
                for (let j = 0; j < keys2.length; ++j) {
                    if (keys2[j] === "__proto__")
                        $util.makeProp(object.attributes, keys2[j]);
                    object.attributes[keys2[j]] = message.attributes[keys2[j]];
                }
            }
            if (message.error && message.error.length) {
                object.error = $Array(message.error.length);
                for (let j = 0; j < message.error.length; ++j)
                    object.error[j] = $root.ingress.Error.toObject(message.error[j], options, _depth + 1);
            }
            return object;
        };

        /**
         * Converts this Event to JSON.
         * @function toJSON
         * @memberof ingress.Event
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Event.prototype.toJSON = function() {
            return Event.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Event;
    })();

    ingress.MobileEvents = (function() {

        /**
         * Properties of a MobileEvents.
         * @typedef {Object} ingress.MobileEvents.$Properties
         * @property {Array.<ingress.Event.$Properties>|null} [events] MobileEvents events
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a MobileEvents.
         * @memberof ingress
         * @interface IMobileEvents
         * @augments ingress.MobileEvents.$Properties
         * @deprecated Use ingress.MobileEvents.$Properties instead.
         */

        /**
         * Shape of a MobileEvents.
         * @typedef {ingress.MobileEvents.$Properties} ingress.MobileEvents.$Shape
         */

        /**
         * Constructs a new MobileEvents.
         * @memberof ingress
         * @classdesc Represents a MobileEvents.
         * @constructor
         * @param {ingress.MobileEvents.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const MobileEvents = function (properties) {
            this.events = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * MobileEvents events.
         * @member {Array.<ingress.Event.$Properties>} events
         * @memberof ingress.MobileEvents
         * @instance
         */
        MobileEvents.prototype.events = $util.emptyArray;

        /**
         * Creates a new MobileEvents instance using the specified properties.
         * @function create
         * @memberof ingress.MobileEvents
         * @static
         * @param {ingress.MobileEvents.$Properties=} [properties] Properties to set
         * @returns {ingress.MobileEvents} MobileEvents instance
         * @type {{
         *   (properties: ingress.MobileEvents.$Shape): ingress.MobileEvents & ingress.MobileEvents.$Shape;
         *   (properties?: ingress.MobileEvents.$Properties): ingress.MobileEvents;
         * }}
         */
        MobileEvents.create = function(properties) {
            return new MobileEvents(properties);
        };

        /**
         * Encodes the specified MobileEvents message. Does not implicitly {@link ingress.MobileEvents.verify|verify} messages.
         * @function encode
         * @memberof ingress.MobileEvents
         * @static
         * @param {ingress.MobileEvents.$Properties} message MobileEvents message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        MobileEvents.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.events != null && message.events.length)
                for (let i = 0; i < message.events.length; ++i)
                    $root.ingress.Event.encode(message.events[i], writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a MobileEvents message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.MobileEvents
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.MobileEvents & ingress.MobileEvents.$Shape} MobileEvents
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        MobileEvents.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.MobileEvents();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if (!(message.events && message.events.length))
                            message.events = [];
                        message.events.push($root.ingress.Event.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a MobileEvents message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.MobileEvents
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.MobileEvents} MobileEvents
         */
        MobileEvents.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.MobileEvents)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.MobileEvents: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.MobileEvents();
            if (object.events) {
                if (!$Array.isArray(object.events))
                    throw $TypeError(".ingress.MobileEvents.events: array expected");
                message.events = $Array(object.events.length);
                for (let i = 0; i < object.events.length; ++i) {
                    if (!$util.isObject(object.events[i]))
                        throw $TypeError(".ingress.MobileEvents.events: object expected");
                    message.events[i] = $root.ingress.Event.fromObject(object.events[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a MobileEvents message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.MobileEvents
         * @static
         * @param {ingress.MobileEvents} message MobileEvents
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        MobileEvents.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.events = [];
            if (message.events && message.events.length) {
                object.events = $Array(message.events.length);
                for (let j = 0; j < message.events.length; ++j)
                    object.events[j] = $root.ingress.Event.toObject(message.events[j], options, _depth + 1);
            }
            return object;
        };

        /**
         * Converts this MobileEvents to JSON.
         * @function toJSON
         * @memberof ingress.MobileEvents
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        MobileEvents.prototype.toJSON = function() {
            return MobileEvents.toObject(this, $protobuf.util.toJSONOptions);
        };

        return MobileEvents;
    })();

    ingress.GenericEvent = (function() {

        /**
         * Properties of a GenericEvent.
         * @typedef {Object} ingress.GenericEvent.$Properties
         * @property {string|null} [id] GenericEvent id
         * @property {string|null} [organization_id] GenericEvent organization_id
         * @property {string|null} [channel_id] GenericEvent channel_id
         * @property {string|null} [device_id] GenericEvent device_id
         * @property {number|Long|null} [server_recieved_at] GenericEvent server_recieved_at
         * @property {number|Long|null} [client_sent_at] GenericEvent client_sent_at
         * @property {ingress.GenericEvent.Source|null} [source] GenericEvent source
         * @property {Uint8Array|null} [payload] GenericEvent payload
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a GenericEvent.
         * @memberof ingress
         * @interface IGenericEvent
         * @augments ingress.GenericEvent.$Properties
         * @deprecated Use ingress.GenericEvent.$Properties instead.
         */

        /**
         * Shape of a GenericEvent.
         * @typedef {ingress.GenericEvent.$Properties} ingress.GenericEvent.$Shape
         */

        /**
         * Constructs a new GenericEvent.
         * @memberof ingress
         * @classdesc Represents a GenericEvent.
         * @constructor
         * @param {ingress.GenericEvent.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const GenericEvent = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * GenericEvent id.
         * @member {string} id
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.id = "";

        /**
         * GenericEvent organization_id.
         * @member {string} organization_id
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.organization_id = "";

        /**
         * GenericEvent channel_id.
         * @member {string} channel_id
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.channel_id = "";

        /**
         * GenericEvent device_id.
         * @member {string} device_id
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.device_id = "";

        /**
         * GenericEvent server_recieved_at.
         * @member {number|Long} server_recieved_at
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.server_recieved_at = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * GenericEvent client_sent_at.
         * @member {number|Long} client_sent_at
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.client_sent_at = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * GenericEvent source.
         * @member {ingress.GenericEvent.Source} source
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.source = 0;

        /**
         * GenericEvent payload.
         * @member {Uint8Array} payload
         * @memberof ingress.GenericEvent
         * @instance
         */
        GenericEvent.prototype.payload = $util.newBuffer([]);

        /**
         * Creates a new GenericEvent instance using the specified properties.
         * @function create
         * @memberof ingress.GenericEvent
         * @static
         * @param {ingress.GenericEvent.$Properties=} [properties] Properties to set
         * @returns {ingress.GenericEvent} GenericEvent instance
         * @type {{
         *   (properties: ingress.GenericEvent.$Shape): ingress.GenericEvent & ingress.GenericEvent.$Shape;
         *   (properties?: ingress.GenericEvent.$Properties): ingress.GenericEvent;
         * }}
         */
        GenericEvent.create = function(properties) {
            return new GenericEvent(properties);
        };

        /**
         * Encodes the specified GenericEvent message. Does not implicitly {@link ingress.GenericEvent.verify|verify} messages.
         * @function encode
         * @memberof ingress.GenericEvent
         * @static
         * @param {ingress.GenericEvent.$Properties} message GenericEvent message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        GenericEvent.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.id);
            if (message.organization_id != null && $Object.hasOwnProperty.call(message, "organization_id") && message.organization_id !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.organization_id);
            if (message.channel_id != null && $Object.hasOwnProperty.call(message, "channel_id") && message.channel_id !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.channel_id);
            if (message.device_id != null && $Object.hasOwnProperty.call(message, "device_id") && message.device_id !== "")
                writer.uint32(/* id 4, wireType 2 =*/34).string(message.device_id);
            if (message.server_recieved_at != null && $Object.hasOwnProperty.call(message, "server_recieved_at") && (typeof message.server_recieved_at === "object" ? message.server_recieved_at.low || message.server_recieved_at.high : message.server_recieved_at !== 0))
                writer.uint32(/* id 5, wireType 0 =*/40).int64(message.server_recieved_at);
            if (message.client_sent_at != null && $Object.hasOwnProperty.call(message, "client_sent_at") && (typeof message.client_sent_at === "object" ? message.client_sent_at.low || message.client_sent_at.high : message.client_sent_at !== 0))
                writer.uint32(/* id 6, wireType 0 =*/48).int64(message.client_sent_at);
            if (message.source != null && $Object.hasOwnProperty.call(message, "source") && message.source !== 0)
                writer.uint32(/* id 7, wireType 0 =*/56).int32(message.source);
            if (message.payload != null && $Object.hasOwnProperty.call(message, "payload") && message.payload.length)
                writer.uint32(/* id 8, wireType 2 =*/66).bytes(message.payload);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a GenericEvent message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.GenericEvent
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.GenericEvent & ingress.GenericEvent.$Shape} GenericEvent
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        GenericEvent.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.GenericEvent();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.id = value;
                        else
                            delete message.id;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.organization_id = value;
                        else
                            delete message.organization_id;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.channel_id = value;
                        else
                            delete message.channel_id;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.device_id = value;
                        else
                            delete message.device_id;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.server_recieved_at = value;
                        else
                            delete message.server_recieved_at;
                        continue;
                    }
                case 6: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.client_sent_at = value;
                        else
                            delete message.client_sent_at;
                        continue;
                    }
                case 7: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.source = value;
                        else
                            delete message.source;
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.payload = value;
                        else
                            delete message.payload;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a GenericEvent message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.GenericEvent
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.GenericEvent} GenericEvent
         */
        GenericEvent.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.GenericEvent)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.GenericEvent: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.GenericEvent();
            if (object.id != null)
                if (typeof object.id !== "string" || object.id.length)
                    message.id = $String(object.id);
            if (object.organization_id != null)
                if (typeof object.organization_id !== "string" || object.organization_id.length)
                    message.organization_id = $String(object.organization_id);
            if (object.channel_id != null)
                if (typeof object.channel_id !== "string" || object.channel_id.length)
                    message.channel_id = $String(object.channel_id);
            if (object.device_id != null)
                if (typeof object.device_id !== "string" || object.device_id.length)
                    message.device_id = $String(object.device_id);
            if (object.server_recieved_at != null)
                if (typeof object.server_recieved_at === "object" ? object.server_recieved_at.low || object.server_recieved_at.high : $Number(object.server_recieved_at) !== 0)
                    if ($util.Long)
                        message.server_recieved_at = $util.Long.fromValue(object.server_recieved_at, false);
                    else if (typeof object.server_recieved_at === "string")
                        message.server_recieved_at = $parseInt(object.server_recieved_at, 10);
                    else if (typeof object.server_recieved_at === "number")
                        message.server_recieved_at = object.server_recieved_at;
                    else if (typeof object.server_recieved_at === "object")
                        message.server_recieved_at = new $util.LongBits(object.server_recieved_at.low >>> 0, object.server_recieved_at.high >>> 0).toNumber();
            if (object.client_sent_at != null)
                if (typeof object.client_sent_at === "object" ? object.client_sent_at.low || object.client_sent_at.high : $Number(object.client_sent_at) !== 0)
                    if ($util.Long)
                        message.client_sent_at = $util.Long.fromValue(object.client_sent_at, false);
                    else if (typeof object.client_sent_at === "string")
                        message.client_sent_at = $parseInt(object.client_sent_at, 10);
                    else if (typeof object.client_sent_at === "number")
                        message.client_sent_at = object.client_sent_at;
                    else if (typeof object.client_sent_at === "object")
                        message.client_sent_at = new $util.LongBits(object.client_sent_at.low >>> 0, object.client_sent_at.high >>> 0).toNumber();
            if (object.source !== 0 && (typeof object.source !== "string" || $root.ingress.GenericEvent.Source[object.source] !== 0))
                switch (object.source) {
                case "MOBILE":
                case 0:
                    message.source = 0;
                    break;
                case "IOT":
                case 1:
                    message.source = 1;
                    break;
                default:
                    if (typeof object.source === "number" && (object.source | 0) === object.source)
                        message.source = object.source;
                }
            if (object.payload != null)
                if (object.payload.length)
                    if (typeof object.payload === "string")
                        $util.base64.decode(object.payload, message.payload = $util.newBuffer($util.base64.length(object.payload)), 0);
                    else if (object.payload.length >= 0)
                        message.payload = object.payload;
            return message;
        };

        /**
         * Creates a plain object from a GenericEvent message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.GenericEvent
         * @static
         * @param {ingress.GenericEvent} message GenericEvent
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        GenericEvent.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.id = "";
                object.organization_id = "";
                object.channel_id = "";
                object.device_id = "";
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.server_recieved_at = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.server_recieved_at = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.client_sent_at = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.client_sent_at = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.source = options.enums === $String ? "MOBILE" : 0;
                if (options.bytes === $String)
                    object.payload = "";
                else {
                    object.payload = [];
                    if (options.bytes !== $Array)
                        object.payload = $util.newBuffer(object.payload);
                }
            }
            if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                object.id = message.id;
            if (message.organization_id != null && $Object.hasOwnProperty.call(message, "organization_id"))
                object.organization_id = message.organization_id;
            if (message.channel_id != null && $Object.hasOwnProperty.call(message, "channel_id"))
                object.channel_id = message.channel_id;
            if (message.device_id != null && $Object.hasOwnProperty.call(message, "device_id"))
                object.device_id = message.device_id;
            if (message.server_recieved_at != null && $Object.hasOwnProperty.call(message, "server_recieved_at"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.server_recieved_at = typeof message.server_recieved_at === "number" ? $BigInt(message.server_recieved_at) : $util.Long.fromBits(message.server_recieved_at.low >>> 0, message.server_recieved_at.high >>> 0, false).toBigInt();
                else if (typeof message.server_recieved_at === "number")
                    object.server_recieved_at = options.longs === $String ? $String(message.server_recieved_at) : message.server_recieved_at;
                else
                    object.server_recieved_at = options.longs === $String ? $util.Long.prototype.toString.call(message.server_recieved_at) : options.longs === $Number ? new $util.LongBits(message.server_recieved_at.low >>> 0, message.server_recieved_at.high >>> 0).toNumber() : message.server_recieved_at;
            if (message.client_sent_at != null && $Object.hasOwnProperty.call(message, "client_sent_at"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.client_sent_at = typeof message.client_sent_at === "number" ? $BigInt(message.client_sent_at) : $util.Long.fromBits(message.client_sent_at.low >>> 0, message.client_sent_at.high >>> 0, false).toBigInt();
                else if (typeof message.client_sent_at === "number")
                    object.client_sent_at = options.longs === $String ? $String(message.client_sent_at) : message.client_sent_at;
                else
                    object.client_sent_at = options.longs === $String ? $util.Long.prototype.toString.call(message.client_sent_at) : options.longs === $Number ? new $util.LongBits(message.client_sent_at.low >>> 0, message.client_sent_at.high >>> 0).toNumber() : message.client_sent_at;
            if (message.source != null && $Object.hasOwnProperty.call(message, "source"))
                object.source = options.enums === $String ? $root.ingress.GenericEvent.Source[message.source] === $undefined ? message.source : $root.ingress.GenericEvent.Source[message.source] : message.source;
            if (message.payload != null && $Object.hasOwnProperty.call(message, "payload"))
                object.payload = options.bytes === $String ? $util.base64.encode(message.payload, 0, message.payload.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.payload) : message.payload;
            return object;
        };

        /**
         * Converts this GenericEvent to JSON.
         * @function toJSON
         * @memberof ingress.GenericEvent
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        GenericEvent.prototype.toJSON = function() {
            return GenericEvent.toObject(this, $protobuf.util.toJSONOptions);
        };

        /**
         * Source enum.
         * @name ingress.GenericEvent.Source
         * @enum {number}
         * @property {number} MOBILE=0 MOBILE value
         * @property {number} IOT=1 IOT value
         */
        GenericEvent.Source = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "MOBILE"] = 0;
            values[valuesById[1] = "IOT"] = 1;
            return values;
        })();

        return GenericEvent;
    })();

    ingress.RegistrationRequest = (function() {

        /**
         * Properties of a RegistrationRequest.
         * @typedef {Object} ingress.RegistrationRequest.$Properties
         * @property {string|null} [apiKey] RegistrationRequest apiKey
         * @property {ingress.Property.$Properties|null} [properties] RegistrationRequest properties
         * @property {Object.<string,string>|null} [aliases] RegistrationRequest aliases
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a RegistrationRequest.
         * @memberof ingress
         * @interface IRegistrationRequest
         * @augments ingress.RegistrationRequest.$Properties
         * @deprecated Use ingress.RegistrationRequest.$Properties instead.
         */

        /**
         * Shape of a RegistrationRequest.
         * @typedef {ingress.RegistrationRequest.$Properties} ingress.RegistrationRequest.$Shape
         */

        /**
         * Constructs a new RegistrationRequest.
         * @memberof ingress
         * @classdesc Represents a RegistrationRequest.
         * @constructor
         * @param {ingress.RegistrationRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const RegistrationRequest = function (properties) {
            this.aliases = {};
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * RegistrationRequest apiKey.
         * @member {string} apiKey
         * @memberof ingress.RegistrationRequest
         * @instance
         */
        RegistrationRequest.prototype.apiKey = "";

        /**
         * RegistrationRequest properties.
         * @member {ingress.Property.$Properties|null|undefined} properties
         * @memberof ingress.RegistrationRequest
         * @instance
         */
        RegistrationRequest.prototype.properties = null;

        /**
         * RegistrationRequest aliases.
         * @member {Object.<string,string>} aliases
         * @memberof ingress.RegistrationRequest
         * @instance
         */
        RegistrationRequest.prototype.aliases = $util.emptyObject;

        /**
         * Creates a new RegistrationRequest instance using the specified properties.
         * @function create
         * @memberof ingress.RegistrationRequest
         * @static
         * @param {ingress.RegistrationRequest.$Properties=} [properties] Properties to set
         * @returns {ingress.RegistrationRequest} RegistrationRequest instance
         * @type {{
         *   (properties: ingress.RegistrationRequest.$Shape): ingress.RegistrationRequest & ingress.RegistrationRequest.$Shape;
         *   (properties?: ingress.RegistrationRequest.$Properties): ingress.RegistrationRequest;
         * }}
         */
        RegistrationRequest.create = function(properties) {
            return new RegistrationRequest(properties);
        };

        /**
         * Encodes the specified RegistrationRequest message. Does not implicitly {@link ingress.RegistrationRequest.verify|verify} messages.
         * @function encode
         * @memberof ingress.RegistrationRequest
         * @static
         * @param {ingress.RegistrationRequest.$Properties} message RegistrationRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        RegistrationRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.apiKey != null && $Object.hasOwnProperty.call(message, "apiKey") && message.apiKey !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.apiKey);
            if (message.properties != null && $Object.hasOwnProperty.call(message, "properties"))
                $root.ingress.Property.encode(message.properties, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.aliases != null && $Object.hasOwnProperty.call(message, "aliases"))
                for (let keys = $Object.keys(message.aliases), i = 0; i < keys.length; ++i)
                    writer.uint32(/* id 3, wireType 2 =*/26).fork().uint32(/* id 1, wireType 2 =*/10).string(keys[i]).uint32(/* id 2, wireType 2 =*/18).string(message.aliases[keys[i]]).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a RegistrationRequest message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.RegistrationRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.RegistrationRequest & ingress.RegistrationRequest.$Shape} RegistrationRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        RegistrationRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, key, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.RegistrationRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.apiKey = value;
                        else
                            delete message.apiKey;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.properties = $root.ingress.Property.decode(reader, reader.size(), $undefined, _depth + 1, message.properties);
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (message.aliases === $util.emptyObject)
                            message.aliases = {};
                        let end2 = reader.size() + reader.pos;
                        if (end2 > reader.len)
                            throw $RangeError("index out of range");
                        reader.len = end2;
                        key = "";
                        value = "";
                        while (reader.pos < end2) {
                            let tag2 = reader.tag();
                            wireType = tag2 & 7;
                            switch (tag2 >>>= 3) {
                            case 1:
                                if (wireType !== 2)
                                    break;
                                key = reader.stringVerify();
                                continue;
                            case 2:
                                if (wireType !== 2)
                                    break;
                                value = reader.stringVerify();
                                continue;
                            }
                            reader.skipType(wireType, _depth, tag2);
                        }
                        if (reader.pos !== end2)
                            throw $RangeError("index out of range");
                        reader.len = end;
                        if (key === "__proto__")
                            $util.makeProp(message.aliases, key);
                        message.aliases[key] = value;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a RegistrationRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.RegistrationRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.RegistrationRequest} RegistrationRequest
         */
        RegistrationRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.RegistrationRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.RegistrationRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.RegistrationRequest();
            if (object.apiKey != null)
                if (typeof object.apiKey !== "string" || object.apiKey.length)
                    message.apiKey = $String(object.apiKey);
            if (object.properties != null) {
                if (!$util.isObject(object.properties))
                    throw $TypeError(".ingress.RegistrationRequest.properties: object expected");
                message.properties = $root.ingress.Property.fromObject(object.properties, _depth + 1);
            }
            if (object.aliases) {
                if (!$util.isObject(object.aliases))
                    throw $TypeError(".ingress.RegistrationRequest.aliases: object expected");
                message.aliases = {};
                for (let keys = $Object.keys(object.aliases), i = 0; i < keys.length; ++i) {
                    if (keys[i] === "__proto__")
                        $util.makeProp(message.aliases, keys[i]);
                    message.aliases[keys[i]] = $String(object.aliases[keys[i]]);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a RegistrationRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.RegistrationRequest
         * @static
         * @param {ingress.RegistrationRequest} message RegistrationRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        RegistrationRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.objects || options.defaults)
                object.aliases = {};
            if (options.defaults) {
                object.apiKey = "";
                object.properties = null;
            }
            if (message.apiKey != null && $Object.hasOwnProperty.call(message, "apiKey"))
                object.apiKey = message.apiKey;
            if (message.properties != null && $Object.hasOwnProperty.call(message, "properties"))
                object.properties = $root.ingress.Property.toObject(message.properties, options, _depth + 1);
            let keys2;
            if (message.aliases && (keys2 = $Object.keys(message.aliases)).length) {
                object.aliases = {};
                for (let j = 0; j < keys2.length; ++j) {
                    if (keys2[j] === "__proto__")
                        $util.makeProp(object.aliases, keys2[j]);
                    object.aliases[keys2[j]] = message.aliases[keys2[j]];
                }
            }
            return object;
        };

        /**
         * Converts this RegistrationRequest to JSON.
         * @function toJSON
         * @memberof ingress.RegistrationRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        RegistrationRequest.prototype.toJSON = function() {
            return RegistrationRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return RegistrationRequest;
    })();

    ingress.RegistrationResponse = (function() {

        /**
         * Properties of a RegistrationResponse.
         * @typedef {Object} ingress.RegistrationResponse.$Properties
         * @property {string|null} [token] RegistrationResponse token
         * @property {string|null} [deviceId] RegistrationResponse deviceId
         * @property {string|null} [organizationId] RegistrationResponse organizationId
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a RegistrationResponse.
         * @memberof ingress
         * @interface IRegistrationResponse
         * @augments ingress.RegistrationResponse.$Properties
         * @deprecated Use ingress.RegistrationResponse.$Properties instead.
         */

        /**
         * Shape of a RegistrationResponse.
         * @typedef {ingress.RegistrationResponse.$Properties} ingress.RegistrationResponse.$Shape
         */

        /**
         * Constructs a new RegistrationResponse.
         * @memberof ingress
         * @classdesc Represents a RegistrationResponse.
         * @constructor
         * @param {ingress.RegistrationResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const RegistrationResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * RegistrationResponse token.
         * @member {string} token
         * @memberof ingress.RegistrationResponse
         * @instance
         */
        RegistrationResponse.prototype.token = "";

        /**
         * RegistrationResponse deviceId.
         * @member {string} deviceId
         * @memberof ingress.RegistrationResponse
         * @instance
         */
        RegistrationResponse.prototype.deviceId = "";

        /**
         * RegistrationResponse organizationId.
         * @member {string} organizationId
         * @memberof ingress.RegistrationResponse
         * @instance
         */
        RegistrationResponse.prototype.organizationId = "";

        /**
         * Creates a new RegistrationResponse instance using the specified properties.
         * @function create
         * @memberof ingress.RegistrationResponse
         * @static
         * @param {ingress.RegistrationResponse.$Properties=} [properties] Properties to set
         * @returns {ingress.RegistrationResponse} RegistrationResponse instance
         * @type {{
         *   (properties: ingress.RegistrationResponse.$Shape): ingress.RegistrationResponse & ingress.RegistrationResponse.$Shape;
         *   (properties?: ingress.RegistrationResponse.$Properties): ingress.RegistrationResponse;
         * }}
         */
        RegistrationResponse.create = function(properties) {
            return new RegistrationResponse(properties);
        };

        /**
         * Encodes the specified RegistrationResponse message. Does not implicitly {@link ingress.RegistrationResponse.verify|verify} messages.
         * @function encode
         * @memberof ingress.RegistrationResponse
         * @static
         * @param {ingress.RegistrationResponse.$Properties} message RegistrationResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        RegistrationResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.token != null && $Object.hasOwnProperty.call(message, "token") && message.token !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.token);
            if (message.deviceId != null && $Object.hasOwnProperty.call(message, "deviceId") && message.deviceId !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.deviceId);
            if (message.organizationId != null && $Object.hasOwnProperty.call(message, "organizationId") && message.organizationId !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.organizationId);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a RegistrationResponse message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.RegistrationResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.RegistrationResponse & ingress.RegistrationResponse.$Shape} RegistrationResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        RegistrationResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.RegistrationResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.token = value;
                        else
                            delete message.token;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.deviceId = value;
                        else
                            delete message.deviceId;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.organizationId = value;
                        else
                            delete message.organizationId;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a RegistrationResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.RegistrationResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.RegistrationResponse} RegistrationResponse
         */
        RegistrationResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.RegistrationResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.RegistrationResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.RegistrationResponse();
            if (object.token != null)
                if (typeof object.token !== "string" || object.token.length)
                    message.token = $String(object.token);
            if (object.deviceId != null)
                if (typeof object.deviceId !== "string" || object.deviceId.length)
                    message.deviceId = $String(object.deviceId);
            if (object.organizationId != null)
                if (typeof object.organizationId !== "string" || object.organizationId.length)
                    message.organizationId = $String(object.organizationId);
            return message;
        };

        /**
         * Creates a plain object from a RegistrationResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.RegistrationResponse
         * @static
         * @param {ingress.RegistrationResponse} message RegistrationResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        RegistrationResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.token = "";
                object.deviceId = "";
                object.organizationId = "";
            }
            if (message.token != null && $Object.hasOwnProperty.call(message, "token"))
                object.token = message.token;
            if (message.deviceId != null && $Object.hasOwnProperty.call(message, "deviceId"))
                object.deviceId = message.deviceId;
            if (message.organizationId != null && $Object.hasOwnProperty.call(message, "organizationId"))
                object.organizationId = message.organizationId;
            return object;
        };

        /**
         * Converts this RegistrationResponse to JSON.
         * @function toJSON
         * @memberof ingress.RegistrationResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        RegistrationResponse.prototype.toJSON = function() {
            return RegistrationResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return RegistrationResponse;
    })();

    ingress.IBeaconsResponse = (function() {

        /**
         * Properties of a IBeaconsResponse.
         * @typedef {Object} ingress.IBeaconsResponse.$Properties
         * @property {Array.<string>|null} [uuids] IBeaconsResponse uuids
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a IBeaconsResponse.
         * @memberof ingress
         * @interface IIBeaconsResponse
         * @augments ingress.IBeaconsResponse.$Properties
         * @deprecated Use ingress.IBeaconsResponse.$Properties instead.
         */

        /**
         * Shape of a IBeaconsResponse.
         * @typedef {ingress.IBeaconsResponse.$Properties} ingress.IBeaconsResponse.$Shape
         */

        /**
         * Constructs a new IBeaconsResponse.
         * @memberof ingress
         * @classdesc Represents a IBeaconsResponse.
         * @constructor
         * @param {ingress.IBeaconsResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const IBeaconsResponse = function (properties) {
            this.uuids = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * IBeaconsResponse uuids.
         * @member {Array.<string>} uuids
         * @memberof ingress.IBeaconsResponse
         * @instance
         */
        IBeaconsResponse.prototype.uuids = $util.emptyArray;

        /**
         * Creates a new IBeaconsResponse instance using the specified properties.
         * @function create
         * @memberof ingress.IBeaconsResponse
         * @static
         * @param {ingress.IBeaconsResponse.$Properties=} [properties] Properties to set
         * @returns {ingress.IBeaconsResponse} IBeaconsResponse instance
         * @type {{
         *   (properties: ingress.IBeaconsResponse.$Shape): ingress.IBeaconsResponse & ingress.IBeaconsResponse.$Shape;
         *   (properties?: ingress.IBeaconsResponse.$Properties): ingress.IBeaconsResponse;
         * }}
         */
        IBeaconsResponse.create = function(properties) {
            return new IBeaconsResponse(properties);
        };

        /**
         * Encodes the specified IBeaconsResponse message. Does not implicitly {@link ingress.IBeaconsResponse.verify|verify} messages.
         * @function encode
         * @memberof ingress.IBeaconsResponse
         * @static
         * @param {ingress.IBeaconsResponse.$Properties} message IBeaconsResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        IBeaconsResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.uuids != null && message.uuids.length)
                for (let i = 0; i < message.uuids.length; ++i)
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.uuids[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a IBeaconsResponse message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.IBeaconsResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.IBeaconsResponse & ingress.IBeaconsResponse.$Shape} IBeaconsResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        IBeaconsResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.IBeaconsResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if (!(message.uuids && message.uuids.length))
                            message.uuids = [];
                        message.uuids.push(reader.stringVerify());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a IBeaconsResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.IBeaconsResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.IBeaconsResponse} IBeaconsResponse
         */
        IBeaconsResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.IBeaconsResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.IBeaconsResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.IBeaconsResponse();
            if (object.uuids) {
                if (!$Array.isArray(object.uuids))
                    throw $TypeError(".ingress.IBeaconsResponse.uuids: array expected");
                message.uuids = $Array(object.uuids.length);
                for (let i = 0; i < object.uuids.length; ++i)
                    message.uuids[i] = $String(object.uuids[i]);
            }
            return message;
        };

        /**
         * Creates a plain object from a IBeaconsResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.IBeaconsResponse
         * @static
         * @param {ingress.IBeaconsResponse} message IBeaconsResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        IBeaconsResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.uuids = [];
            if (message.uuids && message.uuids.length) {
                object.uuids = $Array(message.uuids.length);
                for (let j = 0; j < message.uuids.length; ++j)
                    object.uuids[j] = message.uuids[j];
            }
            return object;
        };

        /**
         * Converts this IBeaconsResponse to JSON.
         * @function toJSON
         * @memberof ingress.IBeaconsResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        IBeaconsResponse.prototype.toJSON = function() {
            return IBeaconsResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return IBeaconsResponse;
    })();

    ingress.Rule = (function() {

        /**
         * Properties of a Rule.
         * @typedef {Object} ingress.Rule.$Properties
         * @property {string|null} [id] Rule id
         * @property {string|null} [name] Rule name
         * @property {string|null} [type] Rule type
         * @property {boolean|null} [enabled] Rule enabled
         * @property {string|null} [conditions] Rule conditions
         * @property {string|null} [conditionObject] Rule conditionObject
         * @property {string|null} [actionsJson] Rule actionsJson
         * @property {string|null} [description] Rule description
         * @property {number|Long|null} [createdAt] Rule createdAt
         * @property {number|Long|null} [updatedAt] Rule updatedAt
         * @property {string|null} [generator] Rule generator
         * @property {string|null} [organizationId] Rule organizationId
         * @property {Array.<string>|null} [channelIds] Rule channelIds
         * @property {string|null} [projectId] Rule projectId
         * @property {Array.<string>|null} [tags] Rule tags
         * @property {number|Long|null} [throttleInSeconds] Rule throttleInSeconds
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Rule.
         * @memberof ingress
         * @interface IRule
         * @augments ingress.Rule.$Properties
         * @deprecated Use ingress.Rule.$Properties instead.
         */

        /**
         * Shape of a Rule.
         * @typedef {ingress.Rule.$Properties} ingress.Rule.$Shape
         */

        /**
         * Constructs a new Rule.
         * @memberof ingress
         * @classdesc Represents a Rule.
         * @constructor
         * @param {ingress.Rule.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Rule = function (properties) {
            this.channelIds = [];
            this.tags = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Rule id.
         * @member {string} id
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.id = "";

        /**
         * Rule name.
         * @member {string} name
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.name = "";

        /**
         * Rule type.
         * @member {string} type
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.type = "";

        /**
         * Rule enabled.
         * @member {boolean} enabled
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.enabled = false;

        /**
         * Rule conditions.
         * @member {string} conditions
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.conditions = "";

        /**
         * Rule conditionObject.
         * @member {string} conditionObject
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.conditionObject = "";

        /**
         * Rule actionsJson.
         * @member {string} actionsJson
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.actionsJson = "";

        /**
         * Rule description.
         * @member {string} description
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.description = "";

        /**
         * Rule createdAt.
         * @member {number|Long} createdAt
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.createdAt = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Rule updatedAt.
         * @member {number|Long} updatedAt
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.updatedAt = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Rule generator.
         * @member {string} generator
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.generator = "";

        /**
         * Rule organizationId.
         * @member {string} organizationId
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.organizationId = "";

        /**
         * Rule channelIds.
         * @member {Array.<string>} channelIds
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.channelIds = $util.emptyArray;

        /**
         * Rule projectId.
         * @member {string} projectId
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.projectId = "";

        /**
         * Rule tags.
         * @member {Array.<string>} tags
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.tags = $util.emptyArray;

        /**
         * Rule throttleInSeconds.
         * @member {number|Long} throttleInSeconds
         * @memberof ingress.Rule
         * @instance
         */
        Rule.prototype.throttleInSeconds = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Creates a new Rule instance using the specified properties.
         * @function create
         * @memberof ingress.Rule
         * @static
         * @param {ingress.Rule.$Properties=} [properties] Properties to set
         * @returns {ingress.Rule} Rule instance
         * @type {{
         *   (properties: ingress.Rule.$Shape): ingress.Rule & ingress.Rule.$Shape;
         *   (properties?: ingress.Rule.$Properties): ingress.Rule;
         * }}
         */
        Rule.create = function(properties) {
            return new Rule(properties);
        };

        /**
         * Encodes the specified Rule message. Does not implicitly {@link ingress.Rule.verify|verify} messages.
         * @function encode
         * @memberof ingress.Rule
         * @static
         * @param {ingress.Rule.$Properties} message Rule message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Rule.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.id);
            if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.name);
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.type);
            if (message.enabled != null && $Object.hasOwnProperty.call(message, "enabled") && message.enabled !== false)
                writer.uint32(/* id 4, wireType 0 =*/32).bool(message.enabled);
            if (message.conditions != null && $Object.hasOwnProperty.call(message, "conditions") && message.conditions !== "")
                writer.uint32(/* id 5, wireType 2 =*/42).string(message.conditions);
            if (message.conditionObject != null && $Object.hasOwnProperty.call(message, "conditionObject") && message.conditionObject !== "")
                writer.uint32(/* id 6, wireType 2 =*/50).string(message.conditionObject);
            if (message.actionsJson != null && $Object.hasOwnProperty.call(message, "actionsJson") && message.actionsJson !== "")
                writer.uint32(/* id 7, wireType 2 =*/58).string(message.actionsJson);
            if (message.description != null && $Object.hasOwnProperty.call(message, "description") && message.description !== "")
                writer.uint32(/* id 8, wireType 2 =*/66).string(message.description);
            if (message.createdAt != null && $Object.hasOwnProperty.call(message, "createdAt") && (typeof message.createdAt === "object" ? message.createdAt.low || message.createdAt.high : message.createdAt !== 0))
                writer.uint32(/* id 9, wireType 0 =*/72).int64(message.createdAt);
            if (message.updatedAt != null && $Object.hasOwnProperty.call(message, "updatedAt") && (typeof message.updatedAt === "object" ? message.updatedAt.low || message.updatedAt.high : message.updatedAt !== 0))
                writer.uint32(/* id 10, wireType 0 =*/80).int64(message.updatedAt);
            if (message.generator != null && $Object.hasOwnProperty.call(message, "generator") && message.generator !== "")
                writer.uint32(/* id 11, wireType 2 =*/90).string(message.generator);
            if (message.organizationId != null && $Object.hasOwnProperty.call(message, "organizationId") && message.organizationId !== "")
                writer.uint32(/* id 12, wireType 2 =*/98).string(message.organizationId);
            if (message.channelIds != null && message.channelIds.length)
                for (let i = 0; i < message.channelIds.length; ++i)
                    writer.uint32(/* id 13, wireType 2 =*/106).string(message.channelIds[i]);
            if (message.projectId != null && $Object.hasOwnProperty.call(message, "projectId") && message.projectId !== "")
                writer.uint32(/* id 14, wireType 2 =*/114).string(message.projectId);
            if (message.tags != null && message.tags.length)
                for (let i = 0; i < message.tags.length; ++i)
                    writer.uint32(/* id 15, wireType 2 =*/122).string(message.tags[i]);
            if (message.throttleInSeconds != null && $Object.hasOwnProperty.call(message, "throttleInSeconds") && (typeof message.throttleInSeconds === "object" ? message.throttleInSeconds.low || message.throttleInSeconds.high : message.throttleInSeconds !== 0))
                writer.uint32(/* id 16, wireType 0 =*/128).int64(message.throttleInSeconds);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Rule message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Rule
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Rule & ingress.Rule.$Shape} Rule
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Rule.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Rule();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.id = value;
                        else
                            delete message.id;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.name = value;
                        else
                            delete message.name;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.enabled = value;
                        else
                            delete message.enabled;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.conditions = value;
                        else
                            delete message.conditions;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.conditionObject = value;
                        else
                            delete message.conditionObject;
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.actionsJson = value;
                        else
                            delete message.actionsJson;
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.description = value;
                        else
                            delete message.description;
                        continue;
                    }
                case 9: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.createdAt = value;
                        else
                            delete message.createdAt;
                        continue;
                    }
                case 10: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.updatedAt = value;
                        else
                            delete message.updatedAt;
                        continue;
                    }
                case 11: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.generator = value;
                        else
                            delete message.generator;
                        continue;
                    }
                case 12: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.organizationId = value;
                        else
                            delete message.organizationId;
                        continue;
                    }
                case 13: {
                        if (wireType !== 2)
                            break;
                        if (!(message.channelIds && message.channelIds.length))
                            message.channelIds = [];
                        message.channelIds.push(reader.stringVerify());
                        continue;
                    }
                case 14: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.projectId = value;
                        else
                            delete message.projectId;
                        continue;
                    }
                case 15: {
                        if (wireType !== 2)
                            break;
                        if (!(message.tags && message.tags.length))
                            message.tags = [];
                        message.tags.push(reader.stringVerify());
                        continue;
                    }
                case 16: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.throttleInSeconds = value;
                        else
                            delete message.throttleInSeconds;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Rule message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Rule
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Rule} Rule
         */
        Rule.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Rule)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Rule: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Rule();
            if (object.id != null)
                if (typeof object.id !== "string" || object.id.length)
                    message.id = $String(object.id);
            if (object.name != null)
                if (typeof object.name !== "string" || object.name.length)
                    message.name = $String(object.name);
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            if (object.enabled != null)
                if (object.enabled)
                    message.enabled = $Boolean(object.enabled);
            if (object.conditions != null)
                if (typeof object.conditions !== "string" || object.conditions.length)
                    message.conditions = $String(object.conditions);
            if (object.conditionObject != null)
                if (typeof object.conditionObject !== "string" || object.conditionObject.length)
                    message.conditionObject = $String(object.conditionObject);
            if (object.actionsJson != null)
                if (typeof object.actionsJson !== "string" || object.actionsJson.length)
                    message.actionsJson = $String(object.actionsJson);
            if (object.description != null)
                if (typeof object.description !== "string" || object.description.length)
                    message.description = $String(object.description);
            if (object.createdAt != null)
                if (typeof object.createdAt === "object" ? object.createdAt.low || object.createdAt.high : $Number(object.createdAt) !== 0)
                    if ($util.Long)
                        message.createdAt = $util.Long.fromValue(object.createdAt, false);
                    else if (typeof object.createdAt === "string")
                        message.createdAt = $parseInt(object.createdAt, 10);
                    else if (typeof object.createdAt === "number")
                        message.createdAt = object.createdAt;
                    else if (typeof object.createdAt === "object")
                        message.createdAt = new $util.LongBits(object.createdAt.low >>> 0, object.createdAt.high >>> 0).toNumber();
            if (object.updatedAt != null)
                if (typeof object.updatedAt === "object" ? object.updatedAt.low || object.updatedAt.high : $Number(object.updatedAt) !== 0)
                    if ($util.Long)
                        message.updatedAt = $util.Long.fromValue(object.updatedAt, false);
                    else if (typeof object.updatedAt === "string")
                        message.updatedAt = $parseInt(object.updatedAt, 10);
                    else if (typeof object.updatedAt === "number")
                        message.updatedAt = object.updatedAt;
                    else if (typeof object.updatedAt === "object")
                        message.updatedAt = new $util.LongBits(object.updatedAt.low >>> 0, object.updatedAt.high >>> 0).toNumber();
            if (object.generator != null)
                if (typeof object.generator !== "string" || object.generator.length)
                    message.generator = $String(object.generator);
            if (object.organizationId != null)
                if (typeof object.organizationId !== "string" || object.organizationId.length)
                    message.organizationId = $String(object.organizationId);
            if (object.channelIds) {
                if (!$Array.isArray(object.channelIds))
                    throw $TypeError(".ingress.Rule.channelIds: array expected");
                message.channelIds = $Array(object.channelIds.length);
                for (let i = 0; i < object.channelIds.length; ++i)
                    message.channelIds[i] = $String(object.channelIds[i]);
            }
            if (object.projectId != null)
                if (typeof object.projectId !== "string" || object.projectId.length)
                    message.projectId = $String(object.projectId);
            if (object.tags) {
                if (!$Array.isArray(object.tags))
                    throw $TypeError(".ingress.Rule.tags: array expected");
                message.tags = $Array(object.tags.length);
                for (let i = 0; i < object.tags.length; ++i)
                    message.tags[i] = $String(object.tags[i]);
            }
            if (object.throttleInSeconds != null)
                if (typeof object.throttleInSeconds === "object" ? object.throttleInSeconds.low || object.throttleInSeconds.high : $Number(object.throttleInSeconds) !== 0)
                    if ($util.Long)
                        message.throttleInSeconds = $util.Long.fromValue(object.throttleInSeconds, false);
                    else if (typeof object.throttleInSeconds === "string")
                        message.throttleInSeconds = $parseInt(object.throttleInSeconds, 10);
                    else if (typeof object.throttleInSeconds === "number")
                        message.throttleInSeconds = object.throttleInSeconds;
                    else if (typeof object.throttleInSeconds === "object")
                        message.throttleInSeconds = new $util.LongBits(object.throttleInSeconds.low >>> 0, object.throttleInSeconds.high >>> 0).toNumber();
            return message;
        };

        /**
         * Creates a plain object from a Rule message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Rule
         * @static
         * @param {ingress.Rule} message Rule
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Rule.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.channelIds = [];
                object.tags = [];
            }
            if (options.defaults) {
                object.id = "";
                object.name = "";
                object.type = "";
                object.enabled = false;
                object.conditions = "";
                object.conditionObject = "";
                object.actionsJson = "";
                object.description = "";
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.createdAt = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.createdAt = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.updatedAt = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.updatedAt = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.generator = "";
                object.organizationId = "";
                object.projectId = "";
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.throttleInSeconds = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.throttleInSeconds = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
            }
            if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                object.id = message.id;
            if (message.name != null && $Object.hasOwnProperty.call(message, "name"))
                object.name = message.name;
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            if (message.enabled != null && $Object.hasOwnProperty.call(message, "enabled"))
                object.enabled = message.enabled;
            if (message.conditions != null && $Object.hasOwnProperty.call(message, "conditions"))
                object.conditions = message.conditions;
            if (message.conditionObject != null && $Object.hasOwnProperty.call(message, "conditionObject"))
                object.conditionObject = message.conditionObject;
            if (message.actionsJson != null && $Object.hasOwnProperty.call(message, "actionsJson"))
                object.actionsJson = message.actionsJson;
            if (message.description != null && $Object.hasOwnProperty.call(message, "description"))
                object.description = message.description;
            if (message.createdAt != null && $Object.hasOwnProperty.call(message, "createdAt"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.createdAt = typeof message.createdAt === "number" ? $BigInt(message.createdAt) : $util.Long.fromBits(message.createdAt.low >>> 0, message.createdAt.high >>> 0, false).toBigInt();
                else if (typeof message.createdAt === "number")
                    object.createdAt = options.longs === $String ? $String(message.createdAt) : message.createdAt;
                else
                    object.createdAt = options.longs === $String ? $util.Long.prototype.toString.call(message.createdAt) : options.longs === $Number ? new $util.LongBits(message.createdAt.low >>> 0, message.createdAt.high >>> 0).toNumber() : message.createdAt;
            if (message.updatedAt != null && $Object.hasOwnProperty.call(message, "updatedAt"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.updatedAt = typeof message.updatedAt === "number" ? $BigInt(message.updatedAt) : $util.Long.fromBits(message.updatedAt.low >>> 0, message.updatedAt.high >>> 0, false).toBigInt();
                else if (typeof message.updatedAt === "number")
                    object.updatedAt = options.longs === $String ? $String(message.updatedAt) : message.updatedAt;
                else
                    object.updatedAt = options.longs === $String ? $util.Long.prototype.toString.call(message.updatedAt) : options.longs === $Number ? new $util.LongBits(message.updatedAt.low >>> 0, message.updatedAt.high >>> 0).toNumber() : message.updatedAt;
            if (message.generator != null && $Object.hasOwnProperty.call(message, "generator"))
                object.generator = message.generator;
            if (message.organizationId != null && $Object.hasOwnProperty.call(message, "organizationId"))
                object.organizationId = message.organizationId;
            if (message.channelIds && message.channelIds.length) {
                object.channelIds = $Array(message.channelIds.length);
                for (let j = 0; j < message.channelIds.length; ++j)
                    object.channelIds[j] = message.channelIds[j];
            }
            if (message.projectId != null && $Object.hasOwnProperty.call(message, "projectId"))
                object.projectId = message.projectId;
            if (message.tags && message.tags.length) {
                object.tags = $Array(message.tags.length);
                for (let j = 0; j < message.tags.length; ++j)
                    object.tags[j] = message.tags[j];
            }
            if (message.throttleInSeconds != null && $Object.hasOwnProperty.call(message, "throttleInSeconds"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.throttleInSeconds = typeof message.throttleInSeconds === "number" ? $BigInt(message.throttleInSeconds) : $util.Long.fromBits(message.throttleInSeconds.low >>> 0, message.throttleInSeconds.high >>> 0, false).toBigInt();
                else if (typeof message.throttleInSeconds === "number")
                    object.throttleInSeconds = options.longs === $String ? $String(message.throttleInSeconds) : message.throttleInSeconds;
                else
                    object.throttleInSeconds = options.longs === $String ? $util.Long.prototype.toString.call(message.throttleInSeconds) : options.longs === $Number ? new $util.LongBits(message.throttleInSeconds.low >>> 0, message.throttleInSeconds.high >>> 0).toNumber() : message.throttleInSeconds;
            return object;
        };

        /**
         * Converts this Rule to JSON.
         * @function toJSON
         * @memberof ingress.Rule
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Rule.prototype.toJSON = function() {
            return Rule.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Rule;
    })();

    ingress.RulesResponse = (function() {

        /**
         * Properties of a RulesResponse.
         * @typedef {Object} ingress.RulesResponse.$Properties
         * @property {Array.<ingress.Rule.$Properties>|null} [rules] RulesResponse rules
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a RulesResponse.
         * @memberof ingress
         * @interface IRulesResponse
         * @augments ingress.RulesResponse.$Properties
         * @deprecated Use ingress.RulesResponse.$Properties instead.
         */

        /**
         * Shape of a RulesResponse.
         * @typedef {ingress.RulesResponse.$Properties} ingress.RulesResponse.$Shape
         */

        /**
         * Constructs a new RulesResponse.
         * @memberof ingress
         * @classdesc Represents a RulesResponse.
         * @constructor
         * @param {ingress.RulesResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const RulesResponse = function (properties) {
            this.rules = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * RulesResponse rules.
         * @member {Array.<ingress.Rule.$Properties>} rules
         * @memberof ingress.RulesResponse
         * @instance
         */
        RulesResponse.prototype.rules = $util.emptyArray;

        /**
         * Creates a new RulesResponse instance using the specified properties.
         * @function create
         * @memberof ingress.RulesResponse
         * @static
         * @param {ingress.RulesResponse.$Properties=} [properties] Properties to set
         * @returns {ingress.RulesResponse} RulesResponse instance
         * @type {{
         *   (properties: ingress.RulesResponse.$Shape): ingress.RulesResponse & ingress.RulesResponse.$Shape;
         *   (properties?: ingress.RulesResponse.$Properties): ingress.RulesResponse;
         * }}
         */
        RulesResponse.create = function(properties) {
            return new RulesResponse(properties);
        };

        /**
         * Encodes the specified RulesResponse message. Does not implicitly {@link ingress.RulesResponse.verify|verify} messages.
         * @function encode
         * @memberof ingress.RulesResponse
         * @static
         * @param {ingress.RulesResponse.$Properties} message RulesResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        RulesResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.rules != null && message.rules.length)
                for (let i = 0; i < message.rules.length; ++i)
                    $root.ingress.Rule.encode(message.rules[i], writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a RulesResponse message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.RulesResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.RulesResponse & ingress.RulesResponse.$Shape} RulesResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        RulesResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.RulesResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if (!(message.rules && message.rules.length))
                            message.rules = [];
                        message.rules.push($root.ingress.Rule.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a RulesResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.RulesResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.RulesResponse} RulesResponse
         */
        RulesResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.RulesResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.RulesResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.RulesResponse();
            if (object.rules) {
                if (!$Array.isArray(object.rules))
                    throw $TypeError(".ingress.RulesResponse.rules: array expected");
                message.rules = $Array(object.rules.length);
                for (let i = 0; i < object.rules.length; ++i) {
                    if (!$util.isObject(object.rules[i]))
                        throw $TypeError(".ingress.RulesResponse.rules: object expected");
                    message.rules[i] = $root.ingress.Rule.fromObject(object.rules[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a RulesResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.RulesResponse
         * @static
         * @param {ingress.RulesResponse} message RulesResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        RulesResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.rules = [];
            if (message.rules && message.rules.length) {
                object.rules = $Array(message.rules.length);
                for (let j = 0; j < message.rules.length; ++j)
                    object.rules[j] = $root.ingress.Rule.toObject(message.rules[j], options, _depth + 1);
            }
            return object;
        };

        /**
         * Converts this RulesResponse to JSON.
         * @function toJSON
         * @memberof ingress.RulesResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        RulesResponse.prototype.toJSON = function() {
            return RulesResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return RulesResponse;
    })();

    ingress.RuleXChannel = (function() {

        /**
         * Properties of a RuleXChannel.
         * @typedef {Object} ingress.RuleXChannel.$Properties
         * @property {string|null} [rule_id] RuleXChannel rule_id
         * @property {string|null} [channel_id] RuleXChannel channel_id
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a RuleXChannel.
         * @memberof ingress
         * @interface IRuleXChannel
         * @augments ingress.RuleXChannel.$Properties
         * @deprecated Use ingress.RuleXChannel.$Properties instead.
         */

        /**
         * Shape of a RuleXChannel.
         * @typedef {ingress.RuleXChannel.$Properties} ingress.RuleXChannel.$Shape
         */

        /**
         * Constructs a new RuleXChannel.
         * @memberof ingress
         * @classdesc Represents a RuleXChannel.
         * @constructor
         * @param {ingress.RuleXChannel.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const RuleXChannel = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * RuleXChannel rule_id.
         * @member {string} rule_id
         * @memberof ingress.RuleXChannel
         * @instance
         */
        RuleXChannel.prototype.rule_id = "";

        /**
         * RuleXChannel channel_id.
         * @member {string} channel_id
         * @memberof ingress.RuleXChannel
         * @instance
         */
        RuleXChannel.prototype.channel_id = "";

        /**
         * Creates a new RuleXChannel instance using the specified properties.
         * @function create
         * @memberof ingress.RuleXChannel
         * @static
         * @param {ingress.RuleXChannel.$Properties=} [properties] Properties to set
         * @returns {ingress.RuleXChannel} RuleXChannel instance
         * @type {{
         *   (properties: ingress.RuleXChannel.$Shape): ingress.RuleXChannel & ingress.RuleXChannel.$Shape;
         *   (properties?: ingress.RuleXChannel.$Properties): ingress.RuleXChannel;
         * }}
         */
        RuleXChannel.create = function(properties) {
            return new RuleXChannel(properties);
        };

        /**
         * Encodes the specified RuleXChannel message. Does not implicitly {@link ingress.RuleXChannel.verify|verify} messages.
         * @function encode
         * @memberof ingress.RuleXChannel
         * @static
         * @param {ingress.RuleXChannel.$Properties} message RuleXChannel message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        RuleXChannel.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.rule_id != null && $Object.hasOwnProperty.call(message, "rule_id") && message.rule_id !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.rule_id);
            if (message.channel_id != null && $Object.hasOwnProperty.call(message, "channel_id") && message.channel_id !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.channel_id);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a RuleXChannel message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.RuleXChannel
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.RuleXChannel & ingress.RuleXChannel.$Shape} RuleXChannel
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        RuleXChannel.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.RuleXChannel();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.rule_id = value;
                        else
                            delete message.rule_id;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.channel_id = value;
                        else
                            delete message.channel_id;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a RuleXChannel message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.RuleXChannel
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.RuleXChannel} RuleXChannel
         */
        RuleXChannel.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.RuleXChannel)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.RuleXChannel: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.RuleXChannel();
            if (object.rule_id != null)
                if (typeof object.rule_id !== "string" || object.rule_id.length)
                    message.rule_id = $String(object.rule_id);
            if (object.channel_id != null)
                if (typeof object.channel_id !== "string" || object.channel_id.length)
                    message.channel_id = $String(object.channel_id);
            return message;
        };

        /**
         * Creates a plain object from a RuleXChannel message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.RuleXChannel
         * @static
         * @param {ingress.RuleXChannel} message RuleXChannel
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        RuleXChannel.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.rule_id = "";
                object.channel_id = "";
            }
            if (message.rule_id != null && $Object.hasOwnProperty.call(message, "rule_id"))
                object.rule_id = message.rule_id;
            if (message.channel_id != null && $Object.hasOwnProperty.call(message, "channel_id"))
                object.channel_id = message.channel_id;
            return object;
        };

        /**
         * Converts this RuleXChannel to JSON.
         * @function toJSON
         * @memberof ingress.RuleXChannel
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        RuleXChannel.prototype.toJSON = function() {
            return RuleXChannel.toObject(this, $protobuf.util.toJSONOptions);
        };

        return RuleXChannel;
    })();

    ingress.Landmark = (function() {

        /**
         * Properties of a Landmark.
         * @typedef {Object} ingress.Landmark.$Properties
         * @property {string|null} [id] Landmark id
         * @property {string|null} [type] Landmark type
         * @property {Uint8Array|null} [shape] Landmark shape
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Landmark.
         * @memberof ingress
         * @interface ILandmark
         * @augments ingress.Landmark.$Properties
         * @deprecated Use ingress.Landmark.$Properties instead.
         */

        /**
         * Shape of a Landmark.
         * @typedef {ingress.Landmark.$Properties} ingress.Landmark.$Shape
         */

        /**
         * Constructs a new Landmark.
         * @memberof ingress
         * @classdesc Represents a Landmark.
         * @constructor
         * @param {ingress.Landmark.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Landmark = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Landmark id.
         * @member {string} id
         * @memberof ingress.Landmark
         * @instance
         */
        Landmark.prototype.id = "";

        /**
         * Landmark type.
         * @member {string} type
         * @memberof ingress.Landmark
         * @instance
         */
        Landmark.prototype.type = "";

        /**
         * Landmark shape.
         * @member {Uint8Array} shape
         * @memberof ingress.Landmark
         * @instance
         */
        Landmark.prototype.shape = $util.newBuffer([]);

        /**
         * Creates a new Landmark instance using the specified properties.
         * @function create
         * @memberof ingress.Landmark
         * @static
         * @param {ingress.Landmark.$Properties=} [properties] Properties to set
         * @returns {ingress.Landmark} Landmark instance
         * @type {{
         *   (properties: ingress.Landmark.$Shape): ingress.Landmark & ingress.Landmark.$Shape;
         *   (properties?: ingress.Landmark.$Properties): ingress.Landmark;
         * }}
         */
        Landmark.create = function(properties) {
            return new Landmark(properties);
        };

        /**
         * Encodes the specified Landmark message. Does not implicitly {@link ingress.Landmark.verify|verify} messages.
         * @function encode
         * @memberof ingress.Landmark
         * @static
         * @param {ingress.Landmark.$Properties} message Landmark message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Landmark.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.id);
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.type);
            if (message.shape != null && $Object.hasOwnProperty.call(message, "shape") && message.shape.length)
                writer.uint32(/* id 3, wireType 2 =*/26).bytes(message.shape);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Landmark message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Landmark
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Landmark & ingress.Landmark.$Shape} Landmark
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Landmark.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Landmark();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.id = value;
                        else
                            delete message.id;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.shape = value;
                        else
                            delete message.shape;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Landmark message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Landmark
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Landmark} Landmark
         */
        Landmark.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Landmark)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Landmark: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Landmark();
            if (object.id != null)
                if (typeof object.id !== "string" || object.id.length)
                    message.id = $String(object.id);
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            if (object.shape != null)
                if (object.shape.length)
                    if (typeof object.shape === "string")
                        $util.base64.decode(object.shape, message.shape = $util.newBuffer($util.base64.length(object.shape)), 0);
                    else if (object.shape.length >= 0)
                        message.shape = object.shape;
            return message;
        };

        /**
         * Creates a plain object from a Landmark message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Landmark
         * @static
         * @param {ingress.Landmark} message Landmark
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Landmark.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.id = "";
                object.type = "";
                if (options.bytes === $String)
                    object.shape = "";
                else {
                    object.shape = [];
                    if (options.bytes !== $Array)
                        object.shape = $util.newBuffer(object.shape);
                }
            }
            if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                object.id = message.id;
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            if (message.shape != null && $Object.hasOwnProperty.call(message, "shape"))
                object.shape = options.bytes === $String ? $util.base64.encode(message.shape, 0, message.shape.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.shape) : message.shape;
            return object;
        };

        /**
         * Converts this Landmark to JSON.
         * @function toJSON
         * @memberof ingress.Landmark
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Landmark.prototype.toJSON = function() {
            return Landmark.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Landmark;
    })();

    ingress.GatewayRegistrationRequest = (function() {

        /**
         * Properties of a GatewayRegistrationRequest.
         * @typedef {Object} ingress.GatewayRegistrationRequest.$Properties
         * @property {string|null} [api_key] GatewayRegistrationRequest api_key
         * @property {string|null} [machine_id] GatewayRegistrationRequest machine_id
         * @property {ingress.GatewayRegistrationRequest.SystemInfo.$Properties|null} [system_info] GatewayRegistrationRequest system_info
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a GatewayRegistrationRequest.
         * @memberof ingress
         * @interface IGatewayRegistrationRequest
         * @augments ingress.GatewayRegistrationRequest.$Properties
         * @deprecated Use ingress.GatewayRegistrationRequest.$Properties instead.
         */

        /**
         * Shape of a GatewayRegistrationRequest.
         * @typedef {ingress.GatewayRegistrationRequest.$Properties} ingress.GatewayRegistrationRequest.$Shape
         */

        /**
         * Constructs a new GatewayRegistrationRequest.
         * @memberof ingress
         * @classdesc Represents a GatewayRegistrationRequest.
         * @constructor
         * @param {ingress.GatewayRegistrationRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const GatewayRegistrationRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * GatewayRegistrationRequest api_key.
         * @member {string} api_key
         * @memberof ingress.GatewayRegistrationRequest
         * @instance
         */
        GatewayRegistrationRequest.prototype.api_key = "";

        /**
         * GatewayRegistrationRequest machine_id.
         * @member {string} machine_id
         * @memberof ingress.GatewayRegistrationRequest
         * @instance
         */
        GatewayRegistrationRequest.prototype.machine_id = "";

        /**
         * GatewayRegistrationRequest system_info.
         * @member {ingress.GatewayRegistrationRequest.SystemInfo.$Properties|null|undefined} system_info
         * @memberof ingress.GatewayRegistrationRequest
         * @instance
         */
        GatewayRegistrationRequest.prototype.system_info = null;

        /**
         * Creates a new GatewayRegistrationRequest instance using the specified properties.
         * @function create
         * @memberof ingress.GatewayRegistrationRequest
         * @static
         * @param {ingress.GatewayRegistrationRequest.$Properties=} [properties] Properties to set
         * @returns {ingress.GatewayRegistrationRequest} GatewayRegistrationRequest instance
         * @type {{
         *   (properties: ingress.GatewayRegistrationRequest.$Shape): ingress.GatewayRegistrationRequest & ingress.GatewayRegistrationRequest.$Shape;
         *   (properties?: ingress.GatewayRegistrationRequest.$Properties): ingress.GatewayRegistrationRequest;
         * }}
         */
        GatewayRegistrationRequest.create = function(properties) {
            return new GatewayRegistrationRequest(properties);
        };

        /**
         * Encodes the specified GatewayRegistrationRequest message. Does not implicitly {@link ingress.GatewayRegistrationRequest.verify|verify} messages.
         * @function encode
         * @memberof ingress.GatewayRegistrationRequest
         * @static
         * @param {ingress.GatewayRegistrationRequest.$Properties} message GatewayRegistrationRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        GatewayRegistrationRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.api_key != null && $Object.hasOwnProperty.call(message, "api_key") && message.api_key !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.api_key);
            if (message.machine_id != null && $Object.hasOwnProperty.call(message, "machine_id") && message.machine_id !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.machine_id);
            if (message.system_info != null && $Object.hasOwnProperty.call(message, "system_info"))
                $root.ingress.GatewayRegistrationRequest.SystemInfo.encode(message.system_info, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a GatewayRegistrationRequest message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.GatewayRegistrationRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.GatewayRegistrationRequest & ingress.GatewayRegistrationRequest.$Shape} GatewayRegistrationRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        GatewayRegistrationRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.GatewayRegistrationRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.api_key = value;
                        else
                            delete message.api_key;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.machine_id = value;
                        else
                            delete message.machine_id;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.system_info = $root.ingress.GatewayRegistrationRequest.SystemInfo.decode(reader, reader.size(), $undefined, _depth + 1, message.system_info);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a GatewayRegistrationRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.GatewayRegistrationRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.GatewayRegistrationRequest} GatewayRegistrationRequest
         */
        GatewayRegistrationRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.GatewayRegistrationRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.GatewayRegistrationRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.GatewayRegistrationRequest();
            if (object.api_key != null)
                if (typeof object.api_key !== "string" || object.api_key.length)
                    message.api_key = $String(object.api_key);
            if (object.machine_id != null)
                if (typeof object.machine_id !== "string" || object.machine_id.length)
                    message.machine_id = $String(object.machine_id);
            if (object.system_info != null) {
                if (!$util.isObject(object.system_info))
                    throw $TypeError(".ingress.GatewayRegistrationRequest.system_info: object expected");
                message.system_info = $root.ingress.GatewayRegistrationRequest.SystemInfo.fromObject(object.system_info, _depth + 1);
            }
            return message;
        };

        /**
         * Creates a plain object from a GatewayRegistrationRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.GatewayRegistrationRequest
         * @static
         * @param {ingress.GatewayRegistrationRequest} message GatewayRegistrationRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        GatewayRegistrationRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.api_key = "";
                object.machine_id = "";
                object.system_info = null;
            }
            if (message.api_key != null && $Object.hasOwnProperty.call(message, "api_key"))
                object.api_key = message.api_key;
            if (message.machine_id != null && $Object.hasOwnProperty.call(message, "machine_id"))
                object.machine_id = message.machine_id;
            if (message.system_info != null && $Object.hasOwnProperty.call(message, "system_info"))
                object.system_info = $root.ingress.GatewayRegistrationRequest.SystemInfo.toObject(message.system_info, options, _depth + 1);
            return object;
        };

        /**
         * Converts this GatewayRegistrationRequest to JSON.
         * @function toJSON
         * @memberof ingress.GatewayRegistrationRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        GatewayRegistrationRequest.prototype.toJSON = function() {
            return GatewayRegistrationRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        GatewayRegistrationRequest.SystemInfo = (function() {

            /**
             * Properties of a SystemInfo.
             * @typedef {Object} ingress.GatewayRegistrationRequest.SystemInfo.$Properties
             * @property {string|null} [os] SystemInfo os
             * @property {string|null} [arch] SystemInfo arch
             * @property {string|null} [cpu] SystemInfo cpu
             * @property {string|null} [gpu] SystemInfo gpu
             * @property {string|null} [memory] SystemInfo memory
             * @property {string|null} [storage] SystemInfo storage
             * @property {string|null} [make] SystemInfo make
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a SystemInfo.
             * @memberof ingress.GatewayRegistrationRequest
             * @interface ISystemInfo
             * @augments ingress.GatewayRegistrationRequest.SystemInfo.$Properties
             * @deprecated Use ingress.GatewayRegistrationRequest.SystemInfo.$Properties instead.
             */

            /**
             * Shape of a SystemInfo.
             * @typedef {ingress.GatewayRegistrationRequest.SystemInfo.$Properties} ingress.GatewayRegistrationRequest.SystemInfo.$Shape
             */

            /**
             * Constructs a new SystemInfo.
             * @memberof ingress.GatewayRegistrationRequest
             * @classdesc Represents a SystemInfo.
             * @constructor
             * @param {ingress.GatewayRegistrationRequest.SystemInfo.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const SystemInfo = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * SystemInfo os.
             * @member {string} os
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             */
            SystemInfo.prototype.os = "";

            /**
             * SystemInfo arch.
             * @member {string} arch
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             */
            SystemInfo.prototype.arch = "";

            /**
             * SystemInfo cpu.
             * @member {string} cpu
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             */
            SystemInfo.prototype.cpu = "";

            /**
             * SystemInfo gpu.
             * @member {string} gpu
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             */
            SystemInfo.prototype.gpu = "";

            /**
             * SystemInfo memory.
             * @member {string} memory
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             */
            SystemInfo.prototype.memory = "";

            /**
             * SystemInfo storage.
             * @member {string} storage
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             */
            SystemInfo.prototype.storage = "";

            /**
             * SystemInfo make.
             * @member {string} make
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             */
            SystemInfo.prototype.make = "";

            /**
             * Creates a new SystemInfo instance using the specified properties.
             * @function create
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @static
             * @param {ingress.GatewayRegistrationRequest.SystemInfo.$Properties=} [properties] Properties to set
             * @returns {ingress.GatewayRegistrationRequest.SystemInfo} SystemInfo instance
             * @type {{
             *   (properties: ingress.GatewayRegistrationRequest.SystemInfo.$Shape): ingress.GatewayRegistrationRequest.SystemInfo & ingress.GatewayRegistrationRequest.SystemInfo.$Shape;
             *   (properties?: ingress.GatewayRegistrationRequest.SystemInfo.$Properties): ingress.GatewayRegistrationRequest.SystemInfo;
             * }}
             */
            SystemInfo.create = function(properties) {
                return new SystemInfo(properties);
            };

            /**
             * Encodes the specified SystemInfo message. Does not implicitly {@link ingress.GatewayRegistrationRequest.SystemInfo.verify|verify} messages.
             * @function encode
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @static
             * @param {ingress.GatewayRegistrationRequest.SystemInfo.$Properties} message SystemInfo message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            SystemInfo.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.os != null && $Object.hasOwnProperty.call(message, "os") && message.os !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.os);
                if (message.arch != null && $Object.hasOwnProperty.call(message, "arch") && message.arch !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.arch);
                if (message.cpu != null && $Object.hasOwnProperty.call(message, "cpu") && message.cpu !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.cpu);
                if (message.gpu != null && $Object.hasOwnProperty.call(message, "gpu") && message.gpu !== "")
                    writer.uint32(/* id 4, wireType 2 =*/34).string(message.gpu);
                if (message.memory != null && $Object.hasOwnProperty.call(message, "memory") && message.memory !== "")
                    writer.uint32(/* id 5, wireType 2 =*/42).string(message.memory);
                if (message.storage != null && $Object.hasOwnProperty.call(message, "storage") && message.storage !== "")
                    writer.uint32(/* id 6, wireType 2 =*/50).string(message.storage);
                if (message.make != null && $Object.hasOwnProperty.call(message, "make") && message.make !== "")
                    writer.uint32(/* id 7, wireType 2 =*/58).string(message.make);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a SystemInfo message from the specified reader or buffer.
             * @function decode
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ingress.GatewayRegistrationRequest.SystemInfo & ingress.GatewayRegistrationRequest.SystemInfo.$Shape} SystemInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            SystemInfo.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ingress.GatewayRegistrationRequest.SystemInfo();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.os = value;
                            else
                                delete message.os;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.arch = value;
                            else
                                delete message.arch;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.cpu = value;
                            else
                                delete message.cpu;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.gpu = value;
                            else
                                delete message.gpu;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.memory = value;
                            else
                                delete message.memory;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.storage = value;
                            else
                                delete message.storage;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.make = value;
                            else
                                delete message.make;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates a SystemInfo message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ingress.GatewayRegistrationRequest.SystemInfo} SystemInfo
             */
            SystemInfo.fromObject = function (object, _depth) {
                if (object instanceof $root.ingress.GatewayRegistrationRequest.SystemInfo)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ingress.GatewayRegistrationRequest.SystemInfo: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ingress.GatewayRegistrationRequest.SystemInfo();
                if (object.os != null)
                    if (typeof object.os !== "string" || object.os.length)
                        message.os = $String(object.os);
                if (object.arch != null)
                    if (typeof object.arch !== "string" || object.arch.length)
                        message.arch = $String(object.arch);
                if (object.cpu != null)
                    if (typeof object.cpu !== "string" || object.cpu.length)
                        message.cpu = $String(object.cpu);
                if (object.gpu != null)
                    if (typeof object.gpu !== "string" || object.gpu.length)
                        message.gpu = $String(object.gpu);
                if (object.memory != null)
                    if (typeof object.memory !== "string" || object.memory.length)
                        message.memory = $String(object.memory);
                if (object.storage != null)
                    if (typeof object.storage !== "string" || object.storage.length)
                        message.storage = $String(object.storage);
                if (object.make != null)
                    if (typeof object.make !== "string" || object.make.length)
                        message.make = $String(object.make);
                return message;
            };

            /**
             * Creates a plain object from a SystemInfo message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @static
             * @param {ingress.GatewayRegistrationRequest.SystemInfo} message SystemInfo
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            SystemInfo.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.os = "";
                    object.arch = "";
                    object.cpu = "";
                    object.gpu = "";
                    object.memory = "";
                    object.storage = "";
                    object.make = "";
                }
                if (message.os != null && $Object.hasOwnProperty.call(message, "os"))
                    object.os = message.os;
                if (message.arch != null && $Object.hasOwnProperty.call(message, "arch"))
                    object.arch = message.arch;
                if (message.cpu != null && $Object.hasOwnProperty.call(message, "cpu"))
                    object.cpu = message.cpu;
                if (message.gpu != null && $Object.hasOwnProperty.call(message, "gpu"))
                    object.gpu = message.gpu;
                if (message.memory != null && $Object.hasOwnProperty.call(message, "memory"))
                    object.memory = message.memory;
                if (message.storage != null && $Object.hasOwnProperty.call(message, "storage"))
                    object.storage = message.storage;
                if (message.make != null && $Object.hasOwnProperty.call(message, "make"))
                    object.make = message.make;
                return object;
            };

            /**
             * Converts this SystemInfo to JSON.
             * @function toJSON
             * @memberof ingress.GatewayRegistrationRequest.SystemInfo
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            SystemInfo.prototype.toJSON = function() {
                return SystemInfo.toObject(this, $protobuf.util.toJSONOptions);
            };

            return SystemInfo;
        })();

        return GatewayRegistrationRequest;
    })();

    ingress.GatewayRegistrationResponse = (function() {

        /**
         * Properties of a GatewayRegistrationResponse.
         * @typedef {Object} ingress.GatewayRegistrationResponse.$Properties
         * @property {string|null} [token] GatewayRegistrationResponse token
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a GatewayRegistrationResponse.
         * @memberof ingress
         * @interface IGatewayRegistrationResponse
         * @augments ingress.GatewayRegistrationResponse.$Properties
         * @deprecated Use ingress.GatewayRegistrationResponse.$Properties instead.
         */

        /**
         * Shape of a GatewayRegistrationResponse.
         * @typedef {ingress.GatewayRegistrationResponse.$Properties} ingress.GatewayRegistrationResponse.$Shape
         */

        /**
         * Constructs a new GatewayRegistrationResponse.
         * @memberof ingress
         * @classdesc Represents a GatewayRegistrationResponse.
         * @constructor
         * @param {ingress.GatewayRegistrationResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const GatewayRegistrationResponse = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * GatewayRegistrationResponse token.
         * @member {string} token
         * @memberof ingress.GatewayRegistrationResponse
         * @instance
         */
        GatewayRegistrationResponse.prototype.token = "";

        /**
         * Creates a new GatewayRegistrationResponse instance using the specified properties.
         * @function create
         * @memberof ingress.GatewayRegistrationResponse
         * @static
         * @param {ingress.GatewayRegistrationResponse.$Properties=} [properties] Properties to set
         * @returns {ingress.GatewayRegistrationResponse} GatewayRegistrationResponse instance
         * @type {{
         *   (properties: ingress.GatewayRegistrationResponse.$Shape): ingress.GatewayRegistrationResponse & ingress.GatewayRegistrationResponse.$Shape;
         *   (properties?: ingress.GatewayRegistrationResponse.$Properties): ingress.GatewayRegistrationResponse;
         * }}
         */
        GatewayRegistrationResponse.create = function(properties) {
            return new GatewayRegistrationResponse(properties);
        };

        /**
         * Encodes the specified GatewayRegistrationResponse message. Does not implicitly {@link ingress.GatewayRegistrationResponse.verify|verify} messages.
         * @function encode
         * @memberof ingress.GatewayRegistrationResponse
         * @static
         * @param {ingress.GatewayRegistrationResponse.$Properties} message GatewayRegistrationResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        GatewayRegistrationResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.token != null && $Object.hasOwnProperty.call(message, "token") && message.token !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.token);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a GatewayRegistrationResponse message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.GatewayRegistrationResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.GatewayRegistrationResponse & ingress.GatewayRegistrationResponse.$Shape} GatewayRegistrationResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        GatewayRegistrationResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.GatewayRegistrationResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.token = value;
                        else
                            delete message.token;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a GatewayRegistrationResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.GatewayRegistrationResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.GatewayRegistrationResponse} GatewayRegistrationResponse
         */
        GatewayRegistrationResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.GatewayRegistrationResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.GatewayRegistrationResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.GatewayRegistrationResponse();
            if (object.token != null)
                if (typeof object.token !== "string" || object.token.length)
                    message.token = $String(object.token);
            return message;
        };

        /**
         * Creates a plain object from a GatewayRegistrationResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.GatewayRegistrationResponse
         * @static
         * @param {ingress.GatewayRegistrationResponse} message GatewayRegistrationResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        GatewayRegistrationResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults)
                object.token = "";
            if (message.token != null && $Object.hasOwnProperty.call(message, "token"))
                object.token = message.token;
            return object;
        };

        /**
         * Converts this GatewayRegistrationResponse to JSON.
         * @function toJSON
         * @memberof ingress.GatewayRegistrationResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        GatewayRegistrationResponse.prototype.toJSON = function() {
            return GatewayRegistrationResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return GatewayRegistrationResponse;
    })();

    ingress.GatewaySyncRequest = (function() {

        /**
         * Properties of a GatewaySyncRequest.
         * @typedef {Object} ingress.GatewaySyncRequest.$Properties
         * @property {number|Long|null} [last_synced_at] GatewaySyncRequest last_synced_at
         * @property {number|Long|null} [totalDeviceRegistration] GatewaySyncRequest totalDeviceRegistration
         * @property {Array.<ingress.GatewaySyncRequest.Summary.$Properties>|null} [devices] GatewaySyncRequest devices
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a GatewaySyncRequest.
         * @memberof ingress
         * @interface IGatewaySyncRequest
         * @augments ingress.GatewaySyncRequest.$Properties
         * @deprecated Use ingress.GatewaySyncRequest.$Properties instead.
         */

        /**
         * Shape of a GatewaySyncRequest.
         * @typedef {ingress.GatewaySyncRequest.$Properties} ingress.GatewaySyncRequest.$Shape
         */

        /**
         * Constructs a new GatewaySyncRequest.
         * @memberof ingress
         * @classdesc Represents a GatewaySyncRequest.
         * @constructor
         * @param {ingress.GatewaySyncRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const GatewaySyncRequest = function (properties) {
            this.devices = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * GatewaySyncRequest last_synced_at.
         * @member {number|Long} last_synced_at
         * @memberof ingress.GatewaySyncRequest
         * @instance
         */
        GatewaySyncRequest.prototype.last_synced_at = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * GatewaySyncRequest totalDeviceRegistration.
         * @member {number|Long} totalDeviceRegistration
         * @memberof ingress.GatewaySyncRequest
         * @instance
         */
        GatewaySyncRequest.prototype.totalDeviceRegistration = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * GatewaySyncRequest devices.
         * @member {Array.<ingress.GatewaySyncRequest.Summary.$Properties>} devices
         * @memberof ingress.GatewaySyncRequest
         * @instance
         */
        GatewaySyncRequest.prototype.devices = $util.emptyArray;

        /**
         * Creates a new GatewaySyncRequest instance using the specified properties.
         * @function create
         * @memberof ingress.GatewaySyncRequest
         * @static
         * @param {ingress.GatewaySyncRequest.$Properties=} [properties] Properties to set
         * @returns {ingress.GatewaySyncRequest} GatewaySyncRequest instance
         * @type {{
         *   (properties: ingress.GatewaySyncRequest.$Shape): ingress.GatewaySyncRequest & ingress.GatewaySyncRequest.$Shape;
         *   (properties?: ingress.GatewaySyncRequest.$Properties): ingress.GatewaySyncRequest;
         * }}
         */
        GatewaySyncRequest.create = function(properties) {
            return new GatewaySyncRequest(properties);
        };

        /**
         * Encodes the specified GatewaySyncRequest message. Does not implicitly {@link ingress.GatewaySyncRequest.verify|verify} messages.
         * @function encode
         * @memberof ingress.GatewaySyncRequest
         * @static
         * @param {ingress.GatewaySyncRequest.$Properties} message GatewaySyncRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        GatewaySyncRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.last_synced_at != null && $Object.hasOwnProperty.call(message, "last_synced_at") && (typeof message.last_synced_at === "object" ? message.last_synced_at.low || message.last_synced_at.high : message.last_synced_at !== 0))
                writer.uint32(/* id 1, wireType 0 =*/8).int64(message.last_synced_at);
            if (message.totalDeviceRegistration != null && $Object.hasOwnProperty.call(message, "totalDeviceRegistration") && (typeof message.totalDeviceRegistration === "object" ? message.totalDeviceRegistration.low || message.totalDeviceRegistration.high : message.totalDeviceRegistration !== 0))
                writer.uint32(/* id 2, wireType 0 =*/16).int64(message.totalDeviceRegistration);
            if (message.devices != null && message.devices.length)
                for (let i = 0; i < message.devices.length; ++i)
                    $root.ingress.GatewaySyncRequest.Summary.encode(message.devices[i], writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a GatewaySyncRequest message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.GatewaySyncRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.GatewaySyncRequest & ingress.GatewaySyncRequest.$Shape} GatewaySyncRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        GatewaySyncRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.GatewaySyncRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.last_synced_at = value;
                        else
                            delete message.last_synced_at;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.totalDeviceRegistration = value;
                        else
                            delete message.totalDeviceRegistration;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (!(message.devices && message.devices.length))
                            message.devices = [];
                        message.devices.push($root.ingress.GatewaySyncRequest.Summary.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a GatewaySyncRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.GatewaySyncRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.GatewaySyncRequest} GatewaySyncRequest
         */
        GatewaySyncRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.GatewaySyncRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.GatewaySyncRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.GatewaySyncRequest();
            if (object.last_synced_at != null)
                if (typeof object.last_synced_at === "object" ? object.last_synced_at.low || object.last_synced_at.high : $Number(object.last_synced_at) !== 0)
                    if ($util.Long)
                        message.last_synced_at = $util.Long.fromValue(object.last_synced_at, false);
                    else if (typeof object.last_synced_at === "string")
                        message.last_synced_at = $parseInt(object.last_synced_at, 10);
                    else if (typeof object.last_synced_at === "number")
                        message.last_synced_at = object.last_synced_at;
                    else if (typeof object.last_synced_at === "object")
                        message.last_synced_at = new $util.LongBits(object.last_synced_at.low >>> 0, object.last_synced_at.high >>> 0).toNumber();
            if (object.totalDeviceRegistration != null)
                if (typeof object.totalDeviceRegistration === "object" ? object.totalDeviceRegistration.low || object.totalDeviceRegistration.high : $Number(object.totalDeviceRegistration) !== 0)
                    if ($util.Long)
                        message.totalDeviceRegistration = $util.Long.fromValue(object.totalDeviceRegistration, false);
                    else if (typeof object.totalDeviceRegistration === "string")
                        message.totalDeviceRegistration = $parseInt(object.totalDeviceRegistration, 10);
                    else if (typeof object.totalDeviceRegistration === "number")
                        message.totalDeviceRegistration = object.totalDeviceRegistration;
                    else if (typeof object.totalDeviceRegistration === "object")
                        message.totalDeviceRegistration = new $util.LongBits(object.totalDeviceRegistration.low >>> 0, object.totalDeviceRegistration.high >>> 0).toNumber();
            if (object.devices) {
                if (!$Array.isArray(object.devices))
                    throw $TypeError(".ingress.GatewaySyncRequest.devices: array expected");
                message.devices = $Array(object.devices.length);
                for (let i = 0; i < object.devices.length; ++i) {
                    if (!$util.isObject(object.devices[i]))
                        throw $TypeError(".ingress.GatewaySyncRequest.devices: object expected");
                    message.devices[i] = $root.ingress.GatewaySyncRequest.Summary.fromObject(object.devices[i], _depth + 1);
                }
            }
            return message;
        };

        /**
         * Creates a plain object from a GatewaySyncRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.GatewaySyncRequest
         * @static
         * @param {ingress.GatewaySyncRequest} message GatewaySyncRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        GatewaySyncRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.devices = [];
            if (options.defaults) {
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.last_synced_at = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.last_synced_at = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.totalDeviceRegistration = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.totalDeviceRegistration = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
            }
            if (message.last_synced_at != null && $Object.hasOwnProperty.call(message, "last_synced_at"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.last_synced_at = typeof message.last_synced_at === "number" ? $BigInt(message.last_synced_at) : $util.Long.fromBits(message.last_synced_at.low >>> 0, message.last_synced_at.high >>> 0, false).toBigInt();
                else if (typeof message.last_synced_at === "number")
                    object.last_synced_at = options.longs === $String ? $String(message.last_synced_at) : message.last_synced_at;
                else
                    object.last_synced_at = options.longs === $String ? $util.Long.prototype.toString.call(message.last_synced_at) : options.longs === $Number ? new $util.LongBits(message.last_synced_at.low >>> 0, message.last_synced_at.high >>> 0).toNumber() : message.last_synced_at;
            if (message.totalDeviceRegistration != null && $Object.hasOwnProperty.call(message, "totalDeviceRegistration"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.totalDeviceRegistration = typeof message.totalDeviceRegistration === "number" ? $BigInt(message.totalDeviceRegistration) : $util.Long.fromBits(message.totalDeviceRegistration.low >>> 0, message.totalDeviceRegistration.high >>> 0, false).toBigInt();
                else if (typeof message.totalDeviceRegistration === "number")
                    object.totalDeviceRegistration = options.longs === $String ? $String(message.totalDeviceRegistration) : message.totalDeviceRegistration;
                else
                    object.totalDeviceRegistration = options.longs === $String ? $util.Long.prototype.toString.call(message.totalDeviceRegistration) : options.longs === $Number ? new $util.LongBits(message.totalDeviceRegistration.low >>> 0, message.totalDeviceRegistration.high >>> 0).toNumber() : message.totalDeviceRegistration;
            if (message.devices && message.devices.length) {
                object.devices = $Array(message.devices.length);
                for (let j = 0; j < message.devices.length; ++j)
                    object.devices[j] = $root.ingress.GatewaySyncRequest.Summary.toObject(message.devices[j], options, _depth + 1);
            }
            return object;
        };

        /**
         * Converts this GatewaySyncRequest to JSON.
         * @function toJSON
         * @memberof ingress.GatewaySyncRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        GatewaySyncRequest.prototype.toJSON = function() {
            return GatewaySyncRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        GatewaySyncRequest.Summary = (function() {

            /**
             * Properties of a Summary.
             * @typedef {Object} ingress.GatewaySyncRequest.Summary.$Properties
             * @property {string|null} [id] Summary id
             * @property {number|Long|null} [totalEvents] Summary totalEvents
             * @property {number|Long|null} [successfulEvents] Summary successfulEvents
             * @property {number|Long|null} [actionExecuted] Summary actionExecuted
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Summary.
             * @memberof ingress.GatewaySyncRequest
             * @interface ISummary
             * @augments ingress.GatewaySyncRequest.Summary.$Properties
             * @deprecated Use ingress.GatewaySyncRequest.Summary.$Properties instead.
             */

            /**
             * Shape of a Summary.
             * @typedef {ingress.GatewaySyncRequest.Summary.$Properties} ingress.GatewaySyncRequest.Summary.$Shape
             */

            /**
             * Constructs a new Summary.
             * @memberof ingress.GatewaySyncRequest
             * @classdesc Represents a Summary.
             * @constructor
             * @param {ingress.GatewaySyncRequest.Summary.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Summary = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Summary id.
             * @member {string} id
             * @memberof ingress.GatewaySyncRequest.Summary
             * @instance
             */
            Summary.prototype.id = "";

            /**
             * Summary totalEvents.
             * @member {number|Long} totalEvents
             * @memberof ingress.GatewaySyncRequest.Summary
             * @instance
             */
            Summary.prototype.totalEvents = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            /**
             * Summary successfulEvents.
             * @member {number|Long} successfulEvents
             * @memberof ingress.GatewaySyncRequest.Summary
             * @instance
             */
            Summary.prototype.successfulEvents = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            /**
             * Summary actionExecuted.
             * @member {number|Long} actionExecuted
             * @memberof ingress.GatewaySyncRequest.Summary
             * @instance
             */
            Summary.prototype.actionExecuted = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            /**
             * Creates a new Summary instance using the specified properties.
             * @function create
             * @memberof ingress.GatewaySyncRequest.Summary
             * @static
             * @param {ingress.GatewaySyncRequest.Summary.$Properties=} [properties] Properties to set
             * @returns {ingress.GatewaySyncRequest.Summary} Summary instance
             * @type {{
             *   (properties: ingress.GatewaySyncRequest.Summary.$Shape): ingress.GatewaySyncRequest.Summary & ingress.GatewaySyncRequest.Summary.$Shape;
             *   (properties?: ingress.GatewaySyncRequest.Summary.$Properties): ingress.GatewaySyncRequest.Summary;
             * }}
             */
            Summary.create = function(properties) {
                return new Summary(properties);
            };

            /**
             * Encodes the specified Summary message. Does not implicitly {@link ingress.GatewaySyncRequest.Summary.verify|verify} messages.
             * @function encode
             * @memberof ingress.GatewaySyncRequest.Summary
             * @static
             * @param {ingress.GatewaySyncRequest.Summary.$Properties} message Summary message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Summary.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.id);
                if (message.totalEvents != null && $Object.hasOwnProperty.call(message, "totalEvents") && (typeof message.totalEvents === "object" ? message.totalEvents.low || message.totalEvents.high : message.totalEvents !== 0))
                    writer.uint32(/* id 2, wireType 0 =*/16).int64(message.totalEvents);
                if (message.successfulEvents != null && $Object.hasOwnProperty.call(message, "successfulEvents") && (typeof message.successfulEvents === "object" ? message.successfulEvents.low || message.successfulEvents.high : message.successfulEvents !== 0))
                    writer.uint32(/* id 3, wireType 0 =*/24).int64(message.successfulEvents);
                if (message.actionExecuted != null && $Object.hasOwnProperty.call(message, "actionExecuted") && (typeof message.actionExecuted === "object" ? message.actionExecuted.low || message.actionExecuted.high : message.actionExecuted !== 0))
                    writer.uint32(/* id 4, wireType 0 =*/32).int64(message.actionExecuted);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a Summary message from the specified reader or buffer.
             * @function decode
             * @memberof ingress.GatewaySyncRequest.Summary
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ingress.GatewaySyncRequest.Summary & ingress.GatewaySyncRequest.Summary.$Shape} Summary
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Summary.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ingress.GatewaySyncRequest.Summary();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.totalEvents = value;
                            else
                                delete message.totalEvents;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.successfulEvents = value;
                            else
                                delete message.successfulEvents;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.actionExecuted = value;
                            else
                                delete message.actionExecuted;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates a Summary message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ingress.GatewaySyncRequest.Summary
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ingress.GatewaySyncRequest.Summary} Summary
             */
            Summary.fromObject = function (object, _depth) {
                if (object instanceof $root.ingress.GatewaySyncRequest.Summary)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ingress.GatewaySyncRequest.Summary: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ingress.GatewaySyncRequest.Summary();
                if (object.id != null)
                    if (typeof object.id !== "string" || object.id.length)
                        message.id = $String(object.id);
                if (object.totalEvents != null)
                    if (typeof object.totalEvents === "object" ? object.totalEvents.low || object.totalEvents.high : $Number(object.totalEvents) !== 0)
                        if ($util.Long)
                            message.totalEvents = $util.Long.fromValue(object.totalEvents, false);
                        else if (typeof object.totalEvents === "string")
                            message.totalEvents = $parseInt(object.totalEvents, 10);
                        else if (typeof object.totalEvents === "number")
                            message.totalEvents = object.totalEvents;
                        else if (typeof object.totalEvents === "object")
                            message.totalEvents = new $util.LongBits(object.totalEvents.low >>> 0, object.totalEvents.high >>> 0).toNumber();
                if (object.successfulEvents != null)
                    if (typeof object.successfulEvents === "object" ? object.successfulEvents.low || object.successfulEvents.high : $Number(object.successfulEvents) !== 0)
                        if ($util.Long)
                            message.successfulEvents = $util.Long.fromValue(object.successfulEvents, false);
                        else if (typeof object.successfulEvents === "string")
                            message.successfulEvents = $parseInt(object.successfulEvents, 10);
                        else if (typeof object.successfulEvents === "number")
                            message.successfulEvents = object.successfulEvents;
                        else if (typeof object.successfulEvents === "object")
                            message.successfulEvents = new $util.LongBits(object.successfulEvents.low >>> 0, object.successfulEvents.high >>> 0).toNumber();
                if (object.actionExecuted != null)
                    if (typeof object.actionExecuted === "object" ? object.actionExecuted.low || object.actionExecuted.high : $Number(object.actionExecuted) !== 0)
                        if ($util.Long)
                            message.actionExecuted = $util.Long.fromValue(object.actionExecuted, false);
                        else if (typeof object.actionExecuted === "string")
                            message.actionExecuted = $parseInt(object.actionExecuted, 10);
                        else if (typeof object.actionExecuted === "number")
                            message.actionExecuted = object.actionExecuted;
                        else if (typeof object.actionExecuted === "object")
                            message.actionExecuted = new $util.LongBits(object.actionExecuted.low >>> 0, object.actionExecuted.high >>> 0).toNumber();
                return message;
            };

            /**
             * Creates a plain object from a Summary message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ingress.GatewaySyncRequest.Summary
             * @static
             * @param {ingress.GatewaySyncRequest.Summary} message Summary
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Summary.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.id = "";
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.totalEvents = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.totalEvents = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.successfulEvents = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.successfulEvents = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.actionExecuted = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.actionExecuted = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                }
                if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                    object.id = message.id;
                if (message.totalEvents != null && $Object.hasOwnProperty.call(message, "totalEvents"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.totalEvents = typeof message.totalEvents === "number" ? $BigInt(message.totalEvents) : $util.Long.fromBits(message.totalEvents.low >>> 0, message.totalEvents.high >>> 0, false).toBigInt();
                    else if (typeof message.totalEvents === "number")
                        object.totalEvents = options.longs === $String ? $String(message.totalEvents) : message.totalEvents;
                    else
                        object.totalEvents = options.longs === $String ? $util.Long.prototype.toString.call(message.totalEvents) : options.longs === $Number ? new $util.LongBits(message.totalEvents.low >>> 0, message.totalEvents.high >>> 0).toNumber() : message.totalEvents;
                if (message.successfulEvents != null && $Object.hasOwnProperty.call(message, "successfulEvents"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.successfulEvents = typeof message.successfulEvents === "number" ? $BigInt(message.successfulEvents) : $util.Long.fromBits(message.successfulEvents.low >>> 0, message.successfulEvents.high >>> 0, false).toBigInt();
                    else if (typeof message.successfulEvents === "number")
                        object.successfulEvents = options.longs === $String ? $String(message.successfulEvents) : message.successfulEvents;
                    else
                        object.successfulEvents = options.longs === $String ? $util.Long.prototype.toString.call(message.successfulEvents) : options.longs === $Number ? new $util.LongBits(message.successfulEvents.low >>> 0, message.successfulEvents.high >>> 0).toNumber() : message.successfulEvents;
                if (message.actionExecuted != null && $Object.hasOwnProperty.call(message, "actionExecuted"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.actionExecuted = typeof message.actionExecuted === "number" ? $BigInt(message.actionExecuted) : $util.Long.fromBits(message.actionExecuted.low >>> 0, message.actionExecuted.high >>> 0, false).toBigInt();
                    else if (typeof message.actionExecuted === "number")
                        object.actionExecuted = options.longs === $String ? $String(message.actionExecuted) : message.actionExecuted;
                    else
                        object.actionExecuted = options.longs === $String ? $util.Long.prototype.toString.call(message.actionExecuted) : options.longs === $Number ? new $util.LongBits(message.actionExecuted.low >>> 0, message.actionExecuted.high >>> 0).toNumber() : message.actionExecuted;
                return object;
            };

            /**
             * Converts this Summary to JSON.
             * @function toJSON
             * @memberof ingress.GatewaySyncRequest.Summary
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Summary.prototype.toJSON = function() {
                return Summary.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Summary;
        })();

        return GatewaySyncRequest;
    })();

    ingress.GatewaySyncResponse = (function() {

        /**
         * Properties of a GatewaySyncResponse.
         * @typedef {Object} ingress.GatewaySyncResponse.$Properties
         * @property {Array.<ingress.Rule.$Properties>|null} [rules] GatewaySyncResponse rules
         * @property {Array.<ingress.RuleXChannel.$Properties>|null} [rule_x_channel] GatewaySyncResponse rule_x_channel
         * @property {Array.<ingress.Landmark.$Properties>|null} [landmarks] GatewaySyncResponse landmarks
         * @property {ingress.GatewaySyncResponse.Deleted.$Properties|null} [deleted] GatewaySyncResponse deleted
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a GatewaySyncResponse.
         * @memberof ingress
         * @interface IGatewaySyncResponse
         * @augments ingress.GatewaySyncResponse.$Properties
         * @deprecated Use ingress.GatewaySyncResponse.$Properties instead.
         */

        /**
         * Shape of a GatewaySyncResponse.
         * @typedef {ingress.GatewaySyncResponse.$Properties} ingress.GatewaySyncResponse.$Shape
         */

        /**
         * Constructs a new GatewaySyncResponse.
         * @memberof ingress
         * @classdesc Represents a GatewaySyncResponse.
         * @constructor
         * @param {ingress.GatewaySyncResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const GatewaySyncResponse = function (properties) {
            this.rules = [];
            this.rule_x_channel = [];
            this.landmarks = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * GatewaySyncResponse rules.
         * @member {Array.<ingress.Rule.$Properties>} rules
         * @memberof ingress.GatewaySyncResponse
         * @instance
         */
        GatewaySyncResponse.prototype.rules = $util.emptyArray;

        /**
         * GatewaySyncResponse rule_x_channel.
         * @member {Array.<ingress.RuleXChannel.$Properties>} rule_x_channel
         * @memberof ingress.GatewaySyncResponse
         * @instance
         */
        GatewaySyncResponse.prototype.rule_x_channel = $util.emptyArray;

        /**
         * GatewaySyncResponse landmarks.
         * @member {Array.<ingress.Landmark.$Properties>} landmarks
         * @memberof ingress.GatewaySyncResponse
         * @instance
         */
        GatewaySyncResponse.prototype.landmarks = $util.emptyArray;

        /**
         * GatewaySyncResponse deleted.
         * @member {ingress.GatewaySyncResponse.Deleted.$Properties|null|undefined} deleted
         * @memberof ingress.GatewaySyncResponse
         * @instance
         */
        GatewaySyncResponse.prototype.deleted = null;

        /**
         * Creates a new GatewaySyncResponse instance using the specified properties.
         * @function create
         * @memberof ingress.GatewaySyncResponse
         * @static
         * @param {ingress.GatewaySyncResponse.$Properties=} [properties] Properties to set
         * @returns {ingress.GatewaySyncResponse} GatewaySyncResponse instance
         * @type {{
         *   (properties: ingress.GatewaySyncResponse.$Shape): ingress.GatewaySyncResponse & ingress.GatewaySyncResponse.$Shape;
         *   (properties?: ingress.GatewaySyncResponse.$Properties): ingress.GatewaySyncResponse;
         * }}
         */
        GatewaySyncResponse.create = function(properties) {
            return new GatewaySyncResponse(properties);
        };

        /**
         * Encodes the specified GatewaySyncResponse message. Does not implicitly {@link ingress.GatewaySyncResponse.verify|verify} messages.
         * @function encode
         * @memberof ingress.GatewaySyncResponse
         * @static
         * @param {ingress.GatewaySyncResponse.$Properties} message GatewaySyncResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        GatewaySyncResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.rules != null && message.rules.length)
                for (let i = 0; i < message.rules.length; ++i)
                    $root.ingress.Rule.encode(message.rules[i], writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.rule_x_channel != null && message.rule_x_channel.length)
                for (let i = 0; i < message.rule_x_channel.length; ++i)
                    $root.ingress.RuleXChannel.encode(message.rule_x_channel[i], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.landmarks != null && message.landmarks.length)
                for (let i = 0; i < message.landmarks.length; ++i)
                    $root.ingress.Landmark.encode(message.landmarks[i], writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.deleted != null && $Object.hasOwnProperty.call(message, "deleted"))
                $root.ingress.GatewaySyncResponse.Deleted.encode(message.deleted, writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a GatewaySyncResponse message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.GatewaySyncResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.GatewaySyncResponse & ingress.GatewaySyncResponse.$Shape} GatewaySyncResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        GatewaySyncResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.GatewaySyncResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if (!(message.rules && message.rules.length))
                            message.rules = [];
                        message.rules.push($root.ingress.Rule.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if (!(message.rule_x_channel && message.rule_x_channel.length))
                            message.rule_x_channel = [];
                        message.rule_x_channel.push($root.ingress.RuleXChannel.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (!(message.landmarks && message.landmarks.length))
                            message.landmarks = [];
                        message.landmarks.push($root.ingress.Landmark.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        message.deleted = $root.ingress.GatewaySyncResponse.Deleted.decode(reader, reader.size(), $undefined, _depth + 1, message.deleted);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a GatewaySyncResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.GatewaySyncResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.GatewaySyncResponse} GatewaySyncResponse
         */
        GatewaySyncResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.GatewaySyncResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.GatewaySyncResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.GatewaySyncResponse();
            if (object.rules) {
                if (!$Array.isArray(object.rules))
                    throw $TypeError(".ingress.GatewaySyncResponse.rules: array expected");
                message.rules = $Array(object.rules.length);
                for (let i = 0; i < object.rules.length; ++i) {
                    if (!$util.isObject(object.rules[i]))
                        throw $TypeError(".ingress.GatewaySyncResponse.rules: object expected");
                    message.rules[i] = $root.ingress.Rule.fromObject(object.rules[i], _depth + 1);
                }
            }
            if (object.rule_x_channel) {
                if (!$Array.isArray(object.rule_x_channel))
                    throw $TypeError(".ingress.GatewaySyncResponse.rule_x_channel: array expected");
                message.rule_x_channel = $Array(object.rule_x_channel.length);
                for (let i = 0; i < object.rule_x_channel.length; ++i) {
                    if (!$util.isObject(object.rule_x_channel[i]))
                        throw $TypeError(".ingress.GatewaySyncResponse.rule_x_channel: object expected");
                    message.rule_x_channel[i] = $root.ingress.RuleXChannel.fromObject(object.rule_x_channel[i], _depth + 1);
                }
            }
            if (object.landmarks) {
                if (!$Array.isArray(object.landmarks))
                    throw $TypeError(".ingress.GatewaySyncResponse.landmarks: array expected");
                message.landmarks = $Array(object.landmarks.length);
                for (let i = 0; i < object.landmarks.length; ++i) {
                    if (!$util.isObject(object.landmarks[i]))
                        throw $TypeError(".ingress.GatewaySyncResponse.landmarks: object expected");
                    message.landmarks[i] = $root.ingress.Landmark.fromObject(object.landmarks[i], _depth + 1);
                }
            }
            if (object.deleted != null) {
                if (!$util.isObject(object.deleted))
                    throw $TypeError(".ingress.GatewaySyncResponse.deleted: object expected");
                message.deleted = $root.ingress.GatewaySyncResponse.Deleted.fromObject(object.deleted, _depth + 1);
            }
            return message;
        };

        /**
         * Creates a plain object from a GatewaySyncResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.GatewaySyncResponse
         * @static
         * @param {ingress.GatewaySyncResponse} message GatewaySyncResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        GatewaySyncResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.rules = [];
                object.rule_x_channel = [];
                object.landmarks = [];
            }
            if (options.defaults)
                object.deleted = null;
            if (message.rules && message.rules.length) {
                object.rules = $Array(message.rules.length);
                for (let j = 0; j < message.rules.length; ++j)
                    object.rules[j] = $root.ingress.Rule.toObject(message.rules[j], options, _depth + 1);
            }
            if (message.rule_x_channel && message.rule_x_channel.length) {
                object.rule_x_channel = $Array(message.rule_x_channel.length);
                for (let j = 0; j < message.rule_x_channel.length; ++j)
                    object.rule_x_channel[j] = $root.ingress.RuleXChannel.toObject(message.rule_x_channel[j], options, _depth + 1);
            }
            if (message.landmarks && message.landmarks.length) {
                object.landmarks = $Array(message.landmarks.length);
                for (let j = 0; j < message.landmarks.length; ++j)
                    object.landmarks[j] = $root.ingress.Landmark.toObject(message.landmarks[j], options, _depth + 1);
            }
            if (message.deleted != null && $Object.hasOwnProperty.call(message, "deleted"))
                object.deleted = $root.ingress.GatewaySyncResponse.Deleted.toObject(message.deleted, options, _depth + 1);
            return object;
        };

        /**
         * Converts this GatewaySyncResponse to JSON.
         * @function toJSON
         * @memberof ingress.GatewaySyncResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        GatewaySyncResponse.prototype.toJSON = function() {
            return GatewaySyncResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        GatewaySyncResponse.Deleted = (function() {

            /**
             * Properties of a Deleted.
             * @typedef {Object} ingress.GatewaySyncResponse.Deleted.$Properties
             * @property {Array.<string>|null} [landmarks] Deleted landmarks
             * @property {Array.<string>|null} [rules] Deleted rules
             * @property {Array.<string>|null} [channels] Deleted channels
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of a Deleted.
             * @memberof ingress.GatewaySyncResponse
             * @interface IDeleted
             * @augments ingress.GatewaySyncResponse.Deleted.$Properties
             * @deprecated Use ingress.GatewaySyncResponse.Deleted.$Properties instead.
             */

            /**
             * Shape of a Deleted.
             * @typedef {ingress.GatewaySyncResponse.Deleted.$Properties} ingress.GatewaySyncResponse.Deleted.$Shape
             */

            /**
             * Constructs a new Deleted.
             * @memberof ingress.GatewaySyncResponse
             * @classdesc Represents a Deleted.
             * @constructor
             * @param {ingress.GatewaySyncResponse.Deleted.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Deleted = function (properties) {
                this.landmarks = [];
                this.rules = [];
                this.channels = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Deleted landmarks.
             * @member {Array.<string>} landmarks
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @instance
             */
            Deleted.prototype.landmarks = $util.emptyArray;

            /**
             * Deleted rules.
             * @member {Array.<string>} rules
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @instance
             */
            Deleted.prototype.rules = $util.emptyArray;

            /**
             * Deleted channels.
             * @member {Array.<string>} channels
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @instance
             */
            Deleted.prototype.channels = $util.emptyArray;

            /**
             * Creates a new Deleted instance using the specified properties.
             * @function create
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @static
             * @param {ingress.GatewaySyncResponse.Deleted.$Properties=} [properties] Properties to set
             * @returns {ingress.GatewaySyncResponse.Deleted} Deleted instance
             * @type {{
             *   (properties: ingress.GatewaySyncResponse.Deleted.$Shape): ingress.GatewaySyncResponse.Deleted & ingress.GatewaySyncResponse.Deleted.$Shape;
             *   (properties?: ingress.GatewaySyncResponse.Deleted.$Properties): ingress.GatewaySyncResponse.Deleted;
             * }}
             */
            Deleted.create = function(properties) {
                return new Deleted(properties);
            };

            /**
             * Encodes the specified Deleted message. Does not implicitly {@link ingress.GatewaySyncResponse.Deleted.verify|verify} messages.
             * @function encode
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @static
             * @param {ingress.GatewaySyncResponse.Deleted.$Properties} message Deleted message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Deleted.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.landmarks != null && message.landmarks.length)
                    for (let i = 0; i < message.landmarks.length; ++i)
                        writer.uint32(/* id 1, wireType 2 =*/10).string(message.landmarks[i]);
                if (message.rules != null && message.rules.length)
                    for (let i = 0; i < message.rules.length; ++i)
                        writer.uint32(/* id 2, wireType 2 =*/18).string(message.rules[i]);
                if (message.channels != null && message.channels.length)
                    for (let i = 0; i < message.channels.length; ++i)
                        writer.uint32(/* id 3, wireType 2 =*/26).string(message.channels[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes a Deleted message from the specified reader or buffer.
             * @function decode
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ingress.GatewaySyncResponse.Deleted & ingress.GatewaySyncResponse.Deleted.$Shape} Deleted
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Deleted.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ingress.GatewaySyncResponse.Deleted();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.landmarks && message.landmarks.length))
                                message.landmarks = [];
                            message.landmarks.push(reader.stringVerify());
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.rules && message.rules.length))
                                message.rules = [];
                            message.rules.push(reader.stringVerify());
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.channels && message.channels.length))
                                message.channels = [];
                            message.channels.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates a Deleted message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ingress.GatewaySyncResponse.Deleted} Deleted
             */
            Deleted.fromObject = function (object, _depth) {
                if (object instanceof $root.ingress.GatewaySyncResponse.Deleted)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ingress.GatewaySyncResponse.Deleted: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ingress.GatewaySyncResponse.Deleted();
                if (object.landmarks) {
                    if (!$Array.isArray(object.landmarks))
                        throw $TypeError(".ingress.GatewaySyncResponse.Deleted.landmarks: array expected");
                    message.landmarks = $Array(object.landmarks.length);
                    for (let i = 0; i < object.landmarks.length; ++i)
                        message.landmarks[i] = $String(object.landmarks[i]);
                }
                if (object.rules) {
                    if (!$Array.isArray(object.rules))
                        throw $TypeError(".ingress.GatewaySyncResponse.Deleted.rules: array expected");
                    message.rules = $Array(object.rules.length);
                    for (let i = 0; i < object.rules.length; ++i)
                        message.rules[i] = $String(object.rules[i]);
                }
                if (object.channels) {
                    if (!$Array.isArray(object.channels))
                        throw $TypeError(".ingress.GatewaySyncResponse.Deleted.channels: array expected");
                    message.channels = $Array(object.channels.length);
                    for (let i = 0; i < object.channels.length; ++i)
                        message.channels[i] = $String(object.channels[i]);
                }
                return message;
            };

            /**
             * Creates a plain object from a Deleted message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @static
             * @param {ingress.GatewaySyncResponse.Deleted} message Deleted
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Deleted.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.arrays || options.defaults) {
                    object.landmarks = [];
                    object.rules = [];
                    object.channels = [];
                }
                if (message.landmarks && message.landmarks.length) {
                    object.landmarks = $Array(message.landmarks.length);
                    for (let j = 0; j < message.landmarks.length; ++j)
                        object.landmarks[j] = message.landmarks[j];
                }
                if (message.rules && message.rules.length) {
                    object.rules = $Array(message.rules.length);
                    for (let j = 0; j < message.rules.length; ++j)
                        object.rules[j] = message.rules[j];
                }
                if (message.channels && message.channels.length) {
                    object.channels = $Array(message.channels.length);
                    for (let j = 0; j < message.channels.length; ++j)
                        object.channels[j] = message.channels[j];
                }
                return object;
            };

            /**
             * Converts this Deleted to JSON.
             * @function toJSON
             * @memberof ingress.GatewaySyncResponse.Deleted
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Deleted.prototype.toJSON = function() {
                return Deleted.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Deleted;
        })();

        return GatewaySyncResponse;
    })();

    ingress.MqttEventRequest = (function() {

        /**
         * Properties of a MqttEventRequest.
         * @typedef {Object} ingress.MqttEventRequest.$Properties
         * @property {string|null} [token] MqttEventRequest token
         * @property {Uint8Array|null} [event] MqttEventRequest event
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a MqttEventRequest.
         * @memberof ingress
         * @interface IMqttEventRequest
         * @augments ingress.MqttEventRequest.$Properties
         * @deprecated Use ingress.MqttEventRequest.$Properties instead.
         */

        /**
         * Shape of a MqttEventRequest.
         * @typedef {ingress.MqttEventRequest.$Properties} ingress.MqttEventRequest.$Shape
         */

        /**
         * Constructs a new MqttEventRequest.
         * @memberof ingress
         * @classdesc Represents a MqttEventRequest.
         * @constructor
         * @param {ingress.MqttEventRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const MqttEventRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * MqttEventRequest token.
         * @member {string} token
         * @memberof ingress.MqttEventRequest
         * @instance
         */
        MqttEventRequest.prototype.token = "";

        /**
         * MqttEventRequest event.
         * @member {Uint8Array} event
         * @memberof ingress.MqttEventRequest
         * @instance
         */
        MqttEventRequest.prototype.event = $util.newBuffer([]);

        /**
         * Creates a new MqttEventRequest instance using the specified properties.
         * @function create
         * @memberof ingress.MqttEventRequest
         * @static
         * @param {ingress.MqttEventRequest.$Properties=} [properties] Properties to set
         * @returns {ingress.MqttEventRequest} MqttEventRequest instance
         * @type {{
         *   (properties: ingress.MqttEventRequest.$Shape): ingress.MqttEventRequest & ingress.MqttEventRequest.$Shape;
         *   (properties?: ingress.MqttEventRequest.$Properties): ingress.MqttEventRequest;
         * }}
         */
        MqttEventRequest.create = function(properties) {
            return new MqttEventRequest(properties);
        };

        /**
         * Encodes the specified MqttEventRequest message. Does not implicitly {@link ingress.MqttEventRequest.verify|verify} messages.
         * @function encode
         * @memberof ingress.MqttEventRequest
         * @static
         * @param {ingress.MqttEventRequest.$Properties} message MqttEventRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        MqttEventRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.token != null && $Object.hasOwnProperty.call(message, "token") && message.token !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.token);
            if (message.event != null && $Object.hasOwnProperty.call(message, "event") && message.event.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.event);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a MqttEventRequest message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.MqttEventRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.MqttEventRequest & ingress.MqttEventRequest.$Shape} MqttEventRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        MqttEventRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.MqttEventRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.token = value;
                        else
                            delete message.token;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.event = value;
                        else
                            delete message.event;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a MqttEventRequest message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.MqttEventRequest
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.MqttEventRequest} MqttEventRequest
         */
        MqttEventRequest.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.MqttEventRequest)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.MqttEventRequest: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.MqttEventRequest();
            if (object.token != null)
                if (typeof object.token !== "string" || object.token.length)
                    message.token = $String(object.token);
            if (object.event != null)
                if (object.event.length)
                    if (typeof object.event === "string")
                        $util.base64.decode(object.event, message.event = $util.newBuffer($util.base64.length(object.event)), 0);
                    else if (object.event.length >= 0)
                        message.event = object.event;
            return message;
        };

        /**
         * Creates a plain object from a MqttEventRequest message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.MqttEventRequest
         * @static
         * @param {ingress.MqttEventRequest} message MqttEventRequest
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        MqttEventRequest.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.token = "";
                if (options.bytes === $String)
                    object.event = "";
                else {
                    object.event = [];
                    if (options.bytes !== $Array)
                        object.event = $util.newBuffer(object.event);
                }
            }
            if (message.token != null && $Object.hasOwnProperty.call(message, "token"))
                object.token = message.token;
            if (message.event != null && $Object.hasOwnProperty.call(message, "event"))
                object.event = options.bytes === $String ? $util.base64.encode(message.event, 0, message.event.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.event) : message.event;
            return object;
        };

        /**
         * Converts this MqttEventRequest to JSON.
         * @function toJSON
         * @memberof ingress.MqttEventRequest
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        MqttEventRequest.prototype.toJSON = function() {
            return MqttEventRequest.toObject(this, $protobuf.util.toJSONOptions);
        };

        return MqttEventRequest;
    })();

    ingress.Notification = (function() {

        /**
         * Properties of a Notification.
         * @typedef {Object} ingress.Notification.$Properties
         * @property {string|null} [id] Notification id
         * @property {number|Long|null} [timestamp] Notification timestamp
         * @property {string|null} [deviceId] Notification deviceId
         * @property {string|null} [subject] Notification subject
         * @property {string|null} [message] Notification message
         * @property {string|null} [type] Notification type
         * @property {string|null} [title] Notification title
         * @property {string|null} [body] Notification body
         * @property {string|null} [actionTitle] Notification actionTitle
         * @property {string|null} [submitUrl] Notification submitUrl
         * @property {string|null} [hint] Notification hint
         * @property {string|null} [landmarkId] Notification landmarkId
         * @property {string|null} [address] Notification address
         * @property {string|null} [addressTitle] Notification addressTitle
         * @property {Array.<ingress.Notification.Actions.$Properties>|null} [actions] Notification actions
         * @property {Array.<ingress.Notification.Options.$Properties>|null} [options] Notification options
         * @property {string|null} [ruleId] Notification ruleId
         * @property {string|null} [actionId] Notification actionId
         * @property {boolean|null} [multipleChoice] Notification multipleChoice
         * @property {Uint8Array|null} [landmark] Notification landmark
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Notification.
         * @memberof ingress
         * @interface INotification
         * @augments ingress.Notification.$Properties
         * @deprecated Use ingress.Notification.$Properties instead.
         */

        /**
         * Shape of a Notification.
         * @typedef {ingress.Notification.$Properties} ingress.Notification.$Shape
         */

        /**
         * Constructs a new Notification.
         * @memberof ingress
         * @classdesc Represents a Notification.
         * @constructor
         * @param {ingress.Notification.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Notification = function (properties) {
            this.actions = [];
            this.options = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Notification id.
         * @member {string} id
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.id = "";

        /**
         * Notification timestamp.
         * @member {number|Long} timestamp
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.timestamp = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

        /**
         * Notification deviceId.
         * @member {string} deviceId
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.deviceId = "";

        /**
         * Notification subject.
         * @member {string} subject
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.subject = "";

        /**
         * Notification message.
         * @member {string} message
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.message = "";

        /**
         * Notification type.
         * @member {string} type
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.type = "";

        /**
         * Notification title.
         * @member {string} title
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.title = "";

        /**
         * Notification body.
         * @member {string} body
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.body = "";

        /**
         * Notification actionTitle.
         * @member {string} actionTitle
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.actionTitle = "";

        /**
         * Notification submitUrl.
         * @member {string} submitUrl
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.submitUrl = "";

        /**
         * Notification hint.
         * @member {string} hint
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.hint = "";

        /**
         * Notification landmarkId.
         * @member {string} landmarkId
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.landmarkId = "";

        /**
         * Notification address.
         * @member {string} address
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.address = "";

        /**
         * Notification addressTitle.
         * @member {string} addressTitle
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.addressTitle = "";

        /**
         * Notification actions.
         * @member {Array.<ingress.Notification.Actions.$Properties>} actions
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.actions = $util.emptyArray;

        /**
         * Notification options.
         * @member {Array.<ingress.Notification.Options.$Properties>} options
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.options = $util.emptyArray;

        /**
         * Notification ruleId.
         * @member {string} ruleId
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.ruleId = "";

        /**
         * Notification actionId.
         * @member {string} actionId
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.actionId = "";

        /**
         * Notification multipleChoice.
         * @member {boolean} multipleChoice
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.multipleChoice = false;

        /**
         * Notification landmark.
         * @member {Uint8Array} landmark
         * @memberof ingress.Notification
         * @instance
         */
        Notification.prototype.landmark = $util.newBuffer([]);

        /**
         * Creates a new Notification instance using the specified properties.
         * @function create
         * @memberof ingress.Notification
         * @static
         * @param {ingress.Notification.$Properties=} [properties] Properties to set
         * @returns {ingress.Notification} Notification instance
         * @type {{
         *   (properties: ingress.Notification.$Shape): ingress.Notification & ingress.Notification.$Shape;
         *   (properties?: ingress.Notification.$Properties): ingress.Notification;
         * }}
         */
        Notification.create = function(properties) {
            return new Notification(properties);
        };

        /**
         * Encodes the specified Notification message. Does not implicitly {@link ingress.Notification.verify|verify} messages.
         * @function encode
         * @memberof ingress.Notification
         * @static
         * @param {ingress.Notification.$Properties} message Notification message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Notification.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.id);
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp") && (typeof message.timestamp === "object" ? message.timestamp.low || message.timestamp.high : message.timestamp !== 0))
                writer.uint32(/* id 2, wireType 0 =*/16).int64(message.timestamp);
            if (message.deviceId != null && $Object.hasOwnProperty.call(message, "deviceId") && message.deviceId !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.deviceId);
            if (message.subject != null && $Object.hasOwnProperty.call(message, "subject") && message.subject !== "")
                writer.uint32(/* id 4, wireType 2 =*/34).string(message.subject);
            if (message.message != null && $Object.hasOwnProperty.call(message, "message") && message.message !== "")
                writer.uint32(/* id 5, wireType 2 =*/42).string(message.message);
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(/* id 6, wireType 2 =*/50).string(message.type);
            if (message.title != null && $Object.hasOwnProperty.call(message, "title") && message.title !== "")
                writer.uint32(/* id 7, wireType 2 =*/58).string(message.title);
            if (message.body != null && $Object.hasOwnProperty.call(message, "body") && message.body !== "")
                writer.uint32(/* id 8, wireType 2 =*/66).string(message.body);
            if (message.actionTitle != null && $Object.hasOwnProperty.call(message, "actionTitle") && message.actionTitle !== "")
                writer.uint32(/* id 9, wireType 2 =*/74).string(message.actionTitle);
            if (message.submitUrl != null && $Object.hasOwnProperty.call(message, "submitUrl") && message.submitUrl !== "")
                writer.uint32(/* id 10, wireType 2 =*/82).string(message.submitUrl);
            if (message.hint != null && $Object.hasOwnProperty.call(message, "hint") && message.hint !== "")
                writer.uint32(/* id 11, wireType 2 =*/90).string(message.hint);
            if (message.landmarkId != null && $Object.hasOwnProperty.call(message, "landmarkId") && message.landmarkId !== "")
                writer.uint32(/* id 12, wireType 2 =*/98).string(message.landmarkId);
            if (message.address != null && $Object.hasOwnProperty.call(message, "address") && message.address !== "")
                writer.uint32(/* id 13, wireType 2 =*/106).string(message.address);
            if (message.addressTitle != null && $Object.hasOwnProperty.call(message, "addressTitle") && message.addressTitle !== "")
                writer.uint32(/* id 14, wireType 2 =*/114).string(message.addressTitle);
            if (message.actions != null && message.actions.length)
                for (let i = 0; i < message.actions.length; ++i)
                    $root.ingress.Notification.Actions.encode(message.actions[i], writer.uint32(/* id 15, wireType 2 =*/122).fork(), _depth + 1).ldelim();
            if (message.options != null && message.options.length)
                for (let i = 0; i < message.options.length; ++i)
                    $root.ingress.Notification.Options.encode(message.options[i], writer.uint32(/* id 16, wireType 2 =*/130).fork(), _depth + 1).ldelim();
            if (message.ruleId != null && $Object.hasOwnProperty.call(message, "ruleId") && message.ruleId !== "")
                writer.uint32(/* id 17, wireType 2 =*/138).string(message.ruleId);
            if (message.actionId != null && $Object.hasOwnProperty.call(message, "actionId") && message.actionId !== "")
                writer.uint32(/* id 18, wireType 2 =*/146).string(message.actionId);
            if (message.multipleChoice != null && $Object.hasOwnProperty.call(message, "multipleChoice") && message.multipleChoice !== false)
                writer.uint32(/* id 19, wireType 0 =*/152).bool(message.multipleChoice);
            if (message.landmark != null && $Object.hasOwnProperty.call(message, "landmark") && message.landmark.length)
                writer.uint32(/* id 20, wireType 2 =*/162).bytes(message.landmark);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Notification message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Notification
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Notification & ingress.Notification.$Shape} Notification
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Notification.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Notification();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.id = value;
                        else
                            delete message.id;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                            message.timestamp = value;
                        else
                            delete message.timestamp;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.deviceId = value;
                        else
                            delete message.deviceId;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.subject = value;
                        else
                            delete message.subject;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.message = value;
                        else
                            delete message.message;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.title = value;
                        else
                            delete message.title;
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.body = value;
                        else
                            delete message.body;
                        continue;
                    }
                case 9: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.actionTitle = value;
                        else
                            delete message.actionTitle;
                        continue;
                    }
                case 10: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.submitUrl = value;
                        else
                            delete message.submitUrl;
                        continue;
                    }
                case 11: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.hint = value;
                        else
                            delete message.hint;
                        continue;
                    }
                case 12: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.landmarkId = value;
                        else
                            delete message.landmarkId;
                        continue;
                    }
                case 13: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.address = value;
                        else
                            delete message.address;
                        continue;
                    }
                case 14: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.addressTitle = value;
                        else
                            delete message.addressTitle;
                        continue;
                    }
                case 15: {
                        if (wireType !== 2)
                            break;
                        if (!(message.actions && message.actions.length))
                            message.actions = [];
                        message.actions.push($root.ingress.Notification.Actions.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 16: {
                        if (wireType !== 2)
                            break;
                        if (!(message.options && message.options.length))
                            message.options = [];
                        message.options.push($root.ingress.Notification.Options.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 17: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.ruleId = value;
                        else
                            delete message.ruleId;
                        continue;
                    }
                case 18: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.actionId = value;
                        else
                            delete message.actionId;
                        continue;
                    }
                case 19: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.multipleChoice = value;
                        else
                            delete message.multipleChoice;
                        continue;
                    }
                case 20: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.landmark = value;
                        else
                            delete message.landmark;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Notification message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Notification
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Notification} Notification
         */
        Notification.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Notification)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Notification: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Notification();
            if (object.id != null)
                if (typeof object.id !== "string" || object.id.length)
                    message.id = $String(object.id);
            if (object.timestamp != null)
                if (typeof object.timestamp === "object" ? object.timestamp.low || object.timestamp.high : $Number(object.timestamp) !== 0)
                    if ($util.Long)
                        message.timestamp = $util.Long.fromValue(object.timestamp, false);
                    else if (typeof object.timestamp === "string")
                        message.timestamp = $parseInt(object.timestamp, 10);
                    else if (typeof object.timestamp === "number")
                        message.timestamp = object.timestamp;
                    else if (typeof object.timestamp === "object")
                        message.timestamp = new $util.LongBits(object.timestamp.low >>> 0, object.timestamp.high >>> 0).toNumber();
            if (object.deviceId != null)
                if (typeof object.deviceId !== "string" || object.deviceId.length)
                    message.deviceId = $String(object.deviceId);
            if (object.subject != null)
                if (typeof object.subject !== "string" || object.subject.length)
                    message.subject = $String(object.subject);
            if (object.message != null)
                if (typeof object.message !== "string" || object.message.length)
                    message.message = $String(object.message);
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            if (object.title != null)
                if (typeof object.title !== "string" || object.title.length)
                    message.title = $String(object.title);
            if (object.body != null)
                if (typeof object.body !== "string" || object.body.length)
                    message.body = $String(object.body);
            if (object.actionTitle != null)
                if (typeof object.actionTitle !== "string" || object.actionTitle.length)
                    message.actionTitle = $String(object.actionTitle);
            if (object.submitUrl != null)
                if (typeof object.submitUrl !== "string" || object.submitUrl.length)
                    message.submitUrl = $String(object.submitUrl);
            if (object.hint != null)
                if (typeof object.hint !== "string" || object.hint.length)
                    message.hint = $String(object.hint);
            if (object.landmarkId != null)
                if (typeof object.landmarkId !== "string" || object.landmarkId.length)
                    message.landmarkId = $String(object.landmarkId);
            if (object.address != null)
                if (typeof object.address !== "string" || object.address.length)
                    message.address = $String(object.address);
            if (object.addressTitle != null)
                if (typeof object.addressTitle !== "string" || object.addressTitle.length)
                    message.addressTitle = $String(object.addressTitle);
            if (object.actions) {
                if (!$Array.isArray(object.actions))
                    throw $TypeError(".ingress.Notification.actions: array expected");
                message.actions = $Array(object.actions.length);
                for (let i = 0; i < object.actions.length; ++i) {
                    if (!$util.isObject(object.actions[i]))
                        throw $TypeError(".ingress.Notification.actions: object expected");
                    message.actions[i] = $root.ingress.Notification.Actions.fromObject(object.actions[i], _depth + 1);
                }
            }
            if (object.options) {
                if (!$Array.isArray(object.options))
                    throw $TypeError(".ingress.Notification.options: array expected");
                message.options = $Array(object.options.length);
                for (let i = 0; i < object.options.length; ++i) {
                    if (!$util.isObject(object.options[i]))
                        throw $TypeError(".ingress.Notification.options: object expected");
                    message.options[i] = $root.ingress.Notification.Options.fromObject(object.options[i], _depth + 1);
                }
            }
            if (object.ruleId != null)
                if (typeof object.ruleId !== "string" || object.ruleId.length)
                    message.ruleId = $String(object.ruleId);
            if (object.actionId != null)
                if (typeof object.actionId !== "string" || object.actionId.length)
                    message.actionId = $String(object.actionId);
            if (object.multipleChoice != null)
                if (object.multipleChoice)
                    message.multipleChoice = $Boolean(object.multipleChoice);
            if (object.landmark != null)
                if (object.landmark.length)
                    if (typeof object.landmark === "string")
                        $util.base64.decode(object.landmark, message.landmark = $util.newBuffer($util.base64.length(object.landmark)), 0);
                    else if (object.landmark.length >= 0)
                        message.landmark = object.landmark;
            return message;
        };

        /**
         * Creates a plain object from a Notification message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Notification
         * @static
         * @param {ingress.Notification} message Notification
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Notification.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults) {
                object.actions = [];
                object.options = [];
            }
            if (options.defaults) {
                object.id = "";
                if ($util.Long) {
                    let long = new $util.Long(0, 0, false);
                    object.timestamp = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                } else
                    object.timestamp = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                object.deviceId = "";
                object.subject = "";
                object.message = "";
                object.type = "";
                object.title = "";
                object.body = "";
                object.actionTitle = "";
                object.submitUrl = "";
                object.hint = "";
                object.landmarkId = "";
                object.address = "";
                object.addressTitle = "";
                object.ruleId = "";
                object.actionId = "";
                object.multipleChoice = false;
                if (options.bytes === $String)
                    object.landmark = "";
                else {
                    object.landmark = [];
                    if (options.bytes !== $Array)
                        object.landmark = $util.newBuffer(object.landmark);
                }
            }
            if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                object.id = message.id;
            if (message.timestamp != null && $Object.hasOwnProperty.call(message, "timestamp"))
                if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                    object.timestamp = typeof message.timestamp === "number" ? $BigInt(message.timestamp) : $util.Long.fromBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0, false).toBigInt();
                else if (typeof message.timestamp === "number")
                    object.timestamp = options.longs === $String ? $String(message.timestamp) : message.timestamp;
                else
                    object.timestamp = options.longs === $String ? $util.Long.prototype.toString.call(message.timestamp) : options.longs === $Number ? new $util.LongBits(message.timestamp.low >>> 0, message.timestamp.high >>> 0).toNumber() : message.timestamp;
            if (message.deviceId != null && $Object.hasOwnProperty.call(message, "deviceId"))
                object.deviceId = message.deviceId;
            if (message.subject != null && $Object.hasOwnProperty.call(message, "subject"))
                object.subject = message.subject;
            if (message.message != null && $Object.hasOwnProperty.call(message, "message"))
                object.message = message.message;
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            if (message.title != null && $Object.hasOwnProperty.call(message, "title"))
                object.title = message.title;
            if (message.body != null && $Object.hasOwnProperty.call(message, "body"))
                object.body = message.body;
            if (message.actionTitle != null && $Object.hasOwnProperty.call(message, "actionTitle"))
                object.actionTitle = message.actionTitle;
            if (message.submitUrl != null && $Object.hasOwnProperty.call(message, "submitUrl"))
                object.submitUrl = message.submitUrl;
            if (message.hint != null && $Object.hasOwnProperty.call(message, "hint"))
                object.hint = message.hint;
            if (message.landmarkId != null && $Object.hasOwnProperty.call(message, "landmarkId"))
                object.landmarkId = message.landmarkId;
            if (message.address != null && $Object.hasOwnProperty.call(message, "address"))
                object.address = message.address;
            if (message.addressTitle != null && $Object.hasOwnProperty.call(message, "addressTitle"))
                object.addressTitle = message.addressTitle;
            if (message.actions && message.actions.length) {
                object.actions = $Array(message.actions.length);
                for (let j = 0; j < message.actions.length; ++j)
                    object.actions[j] = $root.ingress.Notification.Actions.toObject(message.actions[j], options, _depth + 1);
            }
            if (message.options && message.options.length) {
                object.options = $Array(message.options.length);
                for (let j = 0; j < message.options.length; ++j)
                    object.options[j] = $root.ingress.Notification.Options.toObject(message.options[j], options, _depth + 1);
            }
            if (message.ruleId != null && $Object.hasOwnProperty.call(message, "ruleId"))
                object.ruleId = message.ruleId;
            if (message.actionId != null && $Object.hasOwnProperty.call(message, "actionId"))
                object.actionId = message.actionId;
            if (message.multipleChoice != null && $Object.hasOwnProperty.call(message, "multipleChoice"))
                object.multipleChoice = message.multipleChoice;
            if (message.landmark != null && $Object.hasOwnProperty.call(message, "landmark"))
                object.landmark = options.bytes === $String ? $util.base64.encode(message.landmark, 0, message.landmark.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.landmark) : message.landmark;
            return object;
        };

        /**
         * Converts this Notification to JSON.
         * @function toJSON
         * @memberof ingress.Notification
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Notification.prototype.toJSON = function() {
            return Notification.toObject(this, $protobuf.util.toJSONOptions);
        };

        Notification.Actions = (function() {

            /**
             * Properties of an Actions.
             * @typedef {Object} ingress.Notification.Actions.$Properties
             * @property {string|null} [text] Actions text
             * @property {string|null} [message] Actions message
             * @property {string|null} [type] Actions type
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an Actions.
             * @memberof ingress.Notification
             * @interface IActions
             * @augments ingress.Notification.Actions.$Properties
             * @deprecated Use ingress.Notification.Actions.$Properties instead.
             */

            /**
             * Shape of an Actions.
             * @typedef {ingress.Notification.Actions.$Properties} ingress.Notification.Actions.$Shape
             */

            /**
             * Constructs a new Actions.
             * @memberof ingress.Notification
             * @classdesc Represents an Actions.
             * @constructor
             * @param {ingress.Notification.Actions.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Actions = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Actions text.
             * @member {string} text
             * @memberof ingress.Notification.Actions
             * @instance
             */
            Actions.prototype.text = "";

            /**
             * Actions message.
             * @member {string} message
             * @memberof ingress.Notification.Actions
             * @instance
             */
            Actions.prototype.message = "";

            /**
             * Actions type.
             * @member {string} type
             * @memberof ingress.Notification.Actions
             * @instance
             */
            Actions.prototype.type = "";

            /**
             * Creates a new Actions instance using the specified properties.
             * @function create
             * @memberof ingress.Notification.Actions
             * @static
             * @param {ingress.Notification.Actions.$Properties=} [properties] Properties to set
             * @returns {ingress.Notification.Actions} Actions instance
             * @type {{
             *   (properties: ingress.Notification.Actions.$Shape): ingress.Notification.Actions & ingress.Notification.Actions.$Shape;
             *   (properties?: ingress.Notification.Actions.$Properties): ingress.Notification.Actions;
             * }}
             */
            Actions.create = function(properties) {
                return new Actions(properties);
            };

            /**
             * Encodes the specified Actions message. Does not implicitly {@link ingress.Notification.Actions.verify|verify} messages.
             * @function encode
             * @memberof ingress.Notification.Actions
             * @static
             * @param {ingress.Notification.Actions.$Properties} message Actions message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Actions.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.text != null && $Object.hasOwnProperty.call(message, "text") && message.text !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.text);
                if (message.message != null && $Object.hasOwnProperty.call(message, "message") && message.message !== "")
                    writer.uint32(/* id 2, wireType 2 =*/18).string(message.message);
                if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                    writer.uint32(/* id 3, wireType 2 =*/26).string(message.type);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes an Actions message from the specified reader or buffer.
             * @function decode
             * @memberof ingress.Notification.Actions
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ingress.Notification.Actions & ingress.Notification.Actions.$Shape} Actions
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Actions.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ingress.Notification.Actions();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.text = value;
                            else
                                delete message.text;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.message = value;
                            else
                                delete message.message;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.type = value;
                            else
                                delete message.type;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates an Actions message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ingress.Notification.Actions
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ingress.Notification.Actions} Actions
             */
            Actions.fromObject = function (object, _depth) {
                if (object instanceof $root.ingress.Notification.Actions)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ingress.Notification.Actions: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ingress.Notification.Actions();
                if (object.text != null)
                    if (typeof object.text !== "string" || object.text.length)
                        message.text = $String(object.text);
                if (object.message != null)
                    if (typeof object.message !== "string" || object.message.length)
                        message.message = $String(object.message);
                if (object.type != null)
                    if (typeof object.type !== "string" || object.type.length)
                        message.type = $String(object.type);
                return message;
            };

            /**
             * Creates a plain object from an Actions message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ingress.Notification.Actions
             * @static
             * @param {ingress.Notification.Actions} message Actions
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Actions.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.text = "";
                    object.message = "";
                    object.type = "";
                }
                if (message.text != null && $Object.hasOwnProperty.call(message, "text"))
                    object.text = message.text;
                if (message.message != null && $Object.hasOwnProperty.call(message, "message"))
                    object.message = message.message;
                if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                    object.type = message.type;
                return object;
            };

            /**
             * Converts this Actions to JSON.
             * @function toJSON
             * @memberof ingress.Notification.Actions
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Actions.prototype.toJSON = function() {
                return Actions.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Actions;
        })();

        Notification.Options = (function() {

            /**
             * Properties of an Options.
             * @typedef {Object} ingress.Notification.Options.$Properties
             * @property {string|null} [text] Options text
             * @property {number|Long|null} [value] Options value
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */

            /**
             * Properties of an Options.
             * @memberof ingress.Notification
             * @interface IOptions
             * @augments ingress.Notification.Options.$Properties
             * @deprecated Use ingress.Notification.Options.$Properties instead.
             */

            /**
             * Shape of an Options.
             * @typedef {ingress.Notification.Options.$Properties} ingress.Notification.Options.$Shape
             */

            /**
             * Constructs a new Options.
             * @memberof ingress.Notification
             * @classdesc Represents an Options.
             * @constructor
             * @param {ingress.Notification.Options.$Properties=} [properties] Properties to set
             * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
             */
            const Options = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            /**
             * Options text.
             * @member {string} text
             * @memberof ingress.Notification.Options
             * @instance
             */
            Options.prototype.text = "";

            /**
             * Options value.
             * @member {number|Long} value
             * @memberof ingress.Notification.Options
             * @instance
             */
            Options.prototype.value = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            /**
             * Creates a new Options instance using the specified properties.
             * @function create
             * @memberof ingress.Notification.Options
             * @static
             * @param {ingress.Notification.Options.$Properties=} [properties] Properties to set
             * @returns {ingress.Notification.Options} Options instance
             * @type {{
             *   (properties: ingress.Notification.Options.$Shape): ingress.Notification.Options & ingress.Notification.Options.$Shape;
             *   (properties?: ingress.Notification.Options.$Properties): ingress.Notification.Options;
             * }}
             */
            Options.create = function(properties) {
                return new Options(properties);
            };

            /**
             * Encodes the specified Options message. Does not implicitly {@link ingress.Notification.Options.verify|verify} messages.
             * @function encode
             * @memberof ingress.Notification.Options
             * @static
             * @param {ingress.Notification.Options.$Properties} message Options message or plain object to encode
             * @param {$protobuf.Writer} [writer] Writer to encode to
             * @returns {$protobuf.Writer} Writer
             */
            Options.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.text != null && $Object.hasOwnProperty.call(message, "text") && message.text !== "")
                    writer.uint32(/* id 1, wireType 2 =*/10).string(message.text);
                if (message.value != null && $Object.hasOwnProperty.call(message, "value") && (typeof message.value === "object" ? message.value.low || message.value.high : message.value !== 0))
                    writer.uint32(/* id 2, wireType 0 =*/16).int64(message.value);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            /**
             * Decodes an Options message from the specified reader or buffer.
             * @function decode
             * @memberof ingress.Notification.Options
             * @static
             * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
             * @param {number} [length] Message length if known beforehand
             * @returns {ingress.Notification.Options & ingress.Notification.Options.$Shape} Options
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            Options.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.ingress.Notification.Options();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.text = value;
                            else
                                delete message.text;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.value = value;
                            else
                                delete message.value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            /**
             * Creates an Options message from a plain object. Also converts values to their respective internal types.
             * @function fromObject
             * @memberof ingress.Notification.Options
             * @static
             * @param {Object.<string,*>} object Plain object
             * @returns {ingress.Notification.Options} Options
             */
            Options.fromObject = function (object, _depth) {
                if (object instanceof $root.ingress.Notification.Options)
                    return object;
                if (!$util.isObject(object))
                    throw $TypeError(".ingress.Notification.Options: object expected");
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let message = new $root.ingress.Notification.Options();
                if (object.text != null)
                    if (typeof object.text !== "string" || object.text.length)
                        message.text = $String(object.text);
                if (object.value != null)
                    if (typeof object.value === "object" ? object.value.low || object.value.high : $Number(object.value) !== 0)
                        if ($util.Long)
                            message.value = $util.Long.fromValue(object.value, false);
                        else if (typeof object.value === "string")
                            message.value = $parseInt(object.value, 10);
                        else if (typeof object.value === "number")
                            message.value = object.value;
                        else if (typeof object.value === "object")
                            message.value = new $util.LongBits(object.value.low >>> 0, object.value.high >>> 0).toNumber();
                return message;
            };

            /**
             * Creates a plain object from an Options message. Also converts values to other types if specified.
             * @function toObject
             * @memberof ingress.Notification.Options
             * @static
             * @param {ingress.Notification.Options} message Options
             * @param {$protobuf.IConversionOptions} [options] Conversion options
             * @returns {Object.<string,*>} Plain object
             */
            Options.toObject = function (message, options, _depth) {
                if (!options)
                    options = {};
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                let object = {};
                if (options.defaults) {
                    object.text = "";
                    if ($util.Long) {
                        let long = new $util.Long(0, 0, false);
                        object.value = options.longs === $String ? long.toString() : options.longs === $Number ? long.toNumber() : typeof $BigInt !== "undefined" && options.longs === $BigInt ? long.toBigInt() : long;
                    } else
                        object.value = options.longs === $String ? "0" : typeof $BigInt !== "undefined" && options.longs === $BigInt ? $BigInt("0") : 0;
                }
                if (message.text != null && $Object.hasOwnProperty.call(message, "text"))
                    object.text = message.text;
                if (message.value != null && $Object.hasOwnProperty.call(message, "value"))
                    if (typeof $BigInt !== "undefined" && options.longs === $BigInt)
                        object.value = typeof message.value === "number" ? $BigInt(message.value) : $util.Long.fromBits(message.value.low >>> 0, message.value.high >>> 0, false).toBigInt();
                    else if (typeof message.value === "number")
                        object.value = options.longs === $String ? $String(message.value) : message.value;
                    else
                        object.value = options.longs === $String ? $util.Long.prototype.toString.call(message.value) : options.longs === $Number ? new $util.LongBits(message.value.low >>> 0, message.value.high >>> 0).toNumber() : message.value;
                return object;
            };

            /**
             * Converts this Options to JSON.
             * @function toJSON
             * @memberof ingress.Notification.Options
             * @instance
             * @returns {Object.<string,*>} JSON object
             */
            Options.prototype.toJSON = function() {
                return Options.toObject(this, $protobuf.util.toJSONOptions);
            };

            return Options;
        })();

        return Notification;
    })();

    ingress.NotificationResponse = (function() {

        /**
         * Properties of a NotificationResponse.
         * @typedef {Object} ingress.NotificationResponse.$Properties
         * @property {Array.<ingress.Notification.$Properties>|null} [notifications] NotificationResponse notifications
         * @property {boolean|null} [hasMoreData] NotificationResponse hasMoreData
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a NotificationResponse.
         * @memberof ingress
         * @interface INotificationResponse
         * @augments ingress.NotificationResponse.$Properties
         * @deprecated Use ingress.NotificationResponse.$Properties instead.
         */

        /**
         * Shape of a NotificationResponse.
         * @typedef {ingress.NotificationResponse.$Properties} ingress.NotificationResponse.$Shape
         */

        /**
         * Constructs a new NotificationResponse.
         * @memberof ingress
         * @classdesc Represents a NotificationResponse.
         * @constructor
         * @param {ingress.NotificationResponse.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const NotificationResponse = function (properties) {
            this.notifications = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * NotificationResponse notifications.
         * @member {Array.<ingress.Notification.$Properties>} notifications
         * @memberof ingress.NotificationResponse
         * @instance
         */
        NotificationResponse.prototype.notifications = $util.emptyArray;

        /**
         * NotificationResponse hasMoreData.
         * @member {boolean} hasMoreData
         * @memberof ingress.NotificationResponse
         * @instance
         */
        NotificationResponse.prototype.hasMoreData = false;

        /**
         * Creates a new NotificationResponse instance using the specified properties.
         * @function create
         * @memberof ingress.NotificationResponse
         * @static
         * @param {ingress.NotificationResponse.$Properties=} [properties] Properties to set
         * @returns {ingress.NotificationResponse} NotificationResponse instance
         * @type {{
         *   (properties: ingress.NotificationResponse.$Shape): ingress.NotificationResponse & ingress.NotificationResponse.$Shape;
         *   (properties?: ingress.NotificationResponse.$Properties): ingress.NotificationResponse;
         * }}
         */
        NotificationResponse.create = function(properties) {
            return new NotificationResponse(properties);
        };

        /**
         * Encodes the specified NotificationResponse message. Does not implicitly {@link ingress.NotificationResponse.verify|verify} messages.
         * @function encode
         * @memberof ingress.NotificationResponse
         * @static
         * @param {ingress.NotificationResponse.$Properties} message NotificationResponse message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        NotificationResponse.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.notifications != null && message.notifications.length)
                for (let i = 0; i < message.notifications.length; ++i)
                    $root.ingress.Notification.encode(message.notifications[i], writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.hasMoreData != null && $Object.hasOwnProperty.call(message, "hasMoreData") && message.hasMoreData !== false)
                writer.uint32(/* id 2, wireType 0 =*/16).bool(message.hasMoreData);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a NotificationResponse message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.NotificationResponse
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.NotificationResponse & ingress.NotificationResponse.$Shape} NotificationResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        NotificationResponse.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.NotificationResponse();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if (!(message.notifications && message.notifications.length))
                            message.notifications = [];
                        message.notifications.push($root.ingress.Notification.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.hasMoreData = value;
                        else
                            delete message.hasMoreData;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a NotificationResponse message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.NotificationResponse
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.NotificationResponse} NotificationResponse
         */
        NotificationResponse.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.NotificationResponse)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.NotificationResponse: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.NotificationResponse();
            if (object.notifications) {
                if (!$Array.isArray(object.notifications))
                    throw $TypeError(".ingress.NotificationResponse.notifications: array expected");
                message.notifications = $Array(object.notifications.length);
                for (let i = 0; i < object.notifications.length; ++i) {
                    if (!$util.isObject(object.notifications[i]))
                        throw $TypeError(".ingress.NotificationResponse.notifications: object expected");
                    message.notifications[i] = $root.ingress.Notification.fromObject(object.notifications[i], _depth + 1);
                }
            }
            if (object.hasMoreData != null)
                if (object.hasMoreData)
                    message.hasMoreData = $Boolean(object.hasMoreData);
            return message;
        };

        /**
         * Creates a plain object from a NotificationResponse message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.NotificationResponse
         * @static
         * @param {ingress.NotificationResponse} message NotificationResponse
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        NotificationResponse.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.arrays || options.defaults)
                object.notifications = [];
            if (options.defaults)
                object.hasMoreData = false;
            if (message.notifications && message.notifications.length) {
                object.notifications = $Array(message.notifications.length);
                for (let j = 0; j < message.notifications.length; ++j)
                    object.notifications[j] = $root.ingress.Notification.toObject(message.notifications[j], options, _depth + 1);
            }
            if (message.hasMoreData != null && $Object.hasOwnProperty.call(message, "hasMoreData"))
                object.hasMoreData = message.hasMoreData;
            return object;
        };

        /**
         * Converts this NotificationResponse to JSON.
         * @function toJSON
         * @memberof ingress.NotificationResponse
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        NotificationResponse.prototype.toJSON = function() {
            return NotificationResponse.toObject(this, $protobuf.util.toJSONOptions);
        };

        return NotificationResponse;
    })();

    ingress.Response = (function() {

        /**
         * Properties of a Response.
         * @typedef {Object} ingress.Response.$Properties
         * @property {string|null} [id] Response id
         * @property {string|null} [ruleId] Response ruleId
         * @property {string|null} [deviceId] Response deviceId
         * @property {string|null} [actionId] Response actionId
         * @property {string|null} [type] Response type
         * @property {Uint8Array|null} [responseData] Response responseData
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Response.
         * @memberof ingress
         * @interface IResponse
         * @augments ingress.Response.$Properties
         * @deprecated Use ingress.Response.$Properties instead.
         */

        /**
         * Shape of a Response.
         * @typedef {ingress.Response.$Properties} ingress.Response.$Shape
         */

        /**
         * Constructs a new Response.
         * @memberof ingress
         * @classdesc Represents a Response.
         * @constructor
         * @param {ingress.Response.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Response = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Response id.
         * @member {string} id
         * @memberof ingress.Response
         * @instance
         */
        Response.prototype.id = "";

        /**
         * Response ruleId.
         * @member {string} ruleId
         * @memberof ingress.Response
         * @instance
         */
        Response.prototype.ruleId = "";

        /**
         * Response deviceId.
         * @member {string} deviceId
         * @memberof ingress.Response
         * @instance
         */
        Response.prototype.deviceId = "";

        /**
         * Response actionId.
         * @member {string} actionId
         * @memberof ingress.Response
         * @instance
         */
        Response.prototype.actionId = "";

        /**
         * Response type.
         * @member {string} type
         * @memberof ingress.Response
         * @instance
         */
        Response.prototype.type = "";

        /**
         * Response responseData.
         * @member {Uint8Array} responseData
         * @memberof ingress.Response
         * @instance
         */
        Response.prototype.responseData = $util.newBuffer([]);

        /**
         * Creates a new Response instance using the specified properties.
         * @function create
         * @memberof ingress.Response
         * @static
         * @param {ingress.Response.$Properties=} [properties] Properties to set
         * @returns {ingress.Response} Response instance
         * @type {{
         *   (properties: ingress.Response.$Shape): ingress.Response & ingress.Response.$Shape;
         *   (properties?: ingress.Response.$Properties): ingress.Response;
         * }}
         */
        Response.create = function(properties) {
            return new Response(properties);
        };

        /**
         * Encodes the specified Response message. Does not implicitly {@link ingress.Response.verify|verify} messages.
         * @function encode
         * @memberof ingress.Response
         * @static
         * @param {ingress.Response.$Properties} message Response message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Response.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.id);
            if (message.ruleId != null && $Object.hasOwnProperty.call(message, "ruleId") && message.ruleId !== "")
                writer.uint32(/* id 2, wireType 2 =*/18).string(message.ruleId);
            if (message.deviceId != null && $Object.hasOwnProperty.call(message, "deviceId") && message.deviceId !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.deviceId);
            if (message.actionId != null && $Object.hasOwnProperty.call(message, "actionId") && message.actionId !== "")
                writer.uint32(/* id 4, wireType 2 =*/34).string(message.actionId);
            if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== "")
                writer.uint32(/* id 5, wireType 2 =*/42).string(message.type);
            if (message.responseData != null && $Object.hasOwnProperty.call(message, "responseData") && message.responseData.length)
                writer.uint32(/* id 6, wireType 2 =*/50).bytes(message.responseData);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Response message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.Response
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.Response & ingress.Response.$Shape} Response
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Response.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.Response();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.id = value;
                        else
                            delete message.id;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.ruleId = value;
                        else
                            delete message.ruleId;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.deviceId = value;
                        else
                            delete message.deviceId;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.actionId = value;
                        else
                            delete message.actionId;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.type = value;
                        else
                            delete message.type;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.responseData = value;
                        else
                            delete message.responseData;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates a Response message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.Response
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.Response} Response
         */
        Response.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.Response)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.Response: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.Response();
            if (object.id != null)
                if (typeof object.id !== "string" || object.id.length)
                    message.id = $String(object.id);
            if (object.ruleId != null)
                if (typeof object.ruleId !== "string" || object.ruleId.length)
                    message.ruleId = $String(object.ruleId);
            if (object.deviceId != null)
                if (typeof object.deviceId !== "string" || object.deviceId.length)
                    message.deviceId = $String(object.deviceId);
            if (object.actionId != null)
                if (typeof object.actionId !== "string" || object.actionId.length)
                    message.actionId = $String(object.actionId);
            if (object.type != null)
                if (typeof object.type !== "string" || object.type.length)
                    message.type = $String(object.type);
            if (object.responseData != null)
                if (object.responseData.length)
                    if (typeof object.responseData === "string")
                        $util.base64.decode(object.responseData, message.responseData = $util.newBuffer($util.base64.length(object.responseData)), 0);
                    else if (object.responseData.length >= 0)
                        message.responseData = object.responseData;
            return message;
        };

        /**
         * Creates a plain object from a Response message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.Response
         * @static
         * @param {ingress.Response} message Response
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        Response.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults) {
                object.id = "";
                object.ruleId = "";
                object.deviceId = "";
                object.actionId = "";
                object.type = "";
                if (options.bytes === $String)
                    object.responseData = "";
                else {
                    object.responseData = [];
                    if (options.bytes !== $Array)
                        object.responseData = $util.newBuffer(object.responseData);
                }
            }
            if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                object.id = message.id;
            if (message.ruleId != null && $Object.hasOwnProperty.call(message, "ruleId"))
                object.ruleId = message.ruleId;
            if (message.deviceId != null && $Object.hasOwnProperty.call(message, "deviceId"))
                object.deviceId = message.deviceId;
            if (message.actionId != null && $Object.hasOwnProperty.call(message, "actionId"))
                object.actionId = message.actionId;
            if (message.type != null && $Object.hasOwnProperty.call(message, "type"))
                object.type = message.type;
            if (message.responseData != null && $Object.hasOwnProperty.call(message, "responseData"))
                object.responseData = options.bytes === $String ? $util.base64.encode(message.responseData, 0, message.responseData.length) : options.bytes === $Array ? $Array.prototype.slice.call(message.responseData) : message.responseData;
            return object;
        };

        /**
         * Converts this Response to JSON.
         * @function toJSON
         * @memberof ingress.Response
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        Response.prototype.toJSON = function() {
            return Response.toObject(this, $protobuf.util.toJSONOptions);
        };

        return Response;
    })();

    ingress.UploadFiles = (function() {

        /**
         * Properties of an UploadFiles.
         * @typedef {Object} ingress.UploadFiles.$Properties
         * @property {string|null} [key] UploadFiles key
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an UploadFiles.
         * @memberof ingress
         * @interface IUploadFiles
         * @augments ingress.UploadFiles.$Properties
         * @deprecated Use ingress.UploadFiles.$Properties instead.
         */

        /**
         * Shape of an UploadFiles.
         * @typedef {ingress.UploadFiles.$Properties} ingress.UploadFiles.$Shape
         */

        /**
         * Constructs a new UploadFiles.
         * @memberof ingress
         * @classdesc Represents an UploadFiles.
         * @constructor
         * @param {ingress.UploadFiles.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const UploadFiles = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * UploadFiles key.
         * @member {string} key
         * @memberof ingress.UploadFiles
         * @instance
         */
        UploadFiles.prototype.key = "";

        /**
         * Creates a new UploadFiles instance using the specified properties.
         * @function create
         * @memberof ingress.UploadFiles
         * @static
         * @param {ingress.UploadFiles.$Properties=} [properties] Properties to set
         * @returns {ingress.UploadFiles} UploadFiles instance
         * @type {{
         *   (properties: ingress.UploadFiles.$Shape): ingress.UploadFiles & ingress.UploadFiles.$Shape;
         *   (properties?: ingress.UploadFiles.$Properties): ingress.UploadFiles;
         * }}
         */
        UploadFiles.create = function(properties) {
            return new UploadFiles(properties);
        };

        /**
         * Encodes the specified UploadFiles message. Does not implicitly {@link ingress.UploadFiles.verify|verify} messages.
         * @function encode
         * @memberof ingress.UploadFiles
         * @static
         * @param {ingress.UploadFiles.$Properties} message UploadFiles message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        UploadFiles.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key !== "")
                writer.uint32(/* id 1, wireType 2 =*/10).string(message.key);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an UploadFiles message from the specified reader or buffer.
         * @function decode
         * @memberof ingress.UploadFiles
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {ingress.UploadFiles & ingress.UploadFiles.$Shape} UploadFiles
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        UploadFiles.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.ingress.UploadFiles();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.key = value;
                        else
                            delete message.key;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Creates an UploadFiles message from a plain object. Also converts values to their respective internal types.
         * @function fromObject
         * @memberof ingress.UploadFiles
         * @static
         * @param {Object.<string,*>} object Plain object
         * @returns {ingress.UploadFiles} UploadFiles
         */
        UploadFiles.fromObject = function (object, _depth) {
            if (object instanceof $root.ingress.UploadFiles)
                return object;
            if (!$util.isObject(object))
                throw $TypeError(".ingress.UploadFiles: object expected");
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let message = new $root.ingress.UploadFiles();
            if (object.key != null)
                if (typeof object.key !== "string" || object.key.length)
                    message.key = $String(object.key);
            return message;
        };

        /**
         * Creates a plain object from an UploadFiles message. Also converts values to other types if specified.
         * @function toObject
         * @memberof ingress.UploadFiles
         * @static
         * @param {ingress.UploadFiles} message UploadFiles
         * @param {$protobuf.IConversionOptions} [options] Conversion options
         * @returns {Object.<string,*>} Plain object
         */
        UploadFiles.toObject = function (message, options, _depth) {
            if (!options)
                options = {};
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            let object = {};
            if (options.defaults)
                object.key = "";
            if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                object.key = message.key;
            return object;
        };

        /**
         * Converts this UploadFiles to JSON.
         * @function toJSON
         * @memberof ingress.UploadFiles
         * @instance
         * @returns {Object.<string,*>} JSON object
         */
        UploadFiles.prototype.toJSON = function() {
            return UploadFiles.toObject(this, $protobuf.util.toJSONOptions);
        };

        return UploadFiles;
    })();

    return ingress;
})();

export {
  $root as default
};
