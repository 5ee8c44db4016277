import * as $protobuf from "protobufjs";
import Long = require("long");

/** Namespace ingress. */
export namespace ingress {

    /**
     * Properties of a Location.
     * @deprecated Use ingress.Location.$Properties instead.
     */
    interface ILocation extends ingress.Location.$Properties {
    }

    /** Represents a Location. */
    class Location {

        /**
         * Constructs a new Location.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Location.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Location timestamp. */
        timestamp: (number|Long);

        /** Location latitude. */
        latitude: number;

        /** Location longitude. */
        longitude: number;

        /** Location velocity. */
        velocity: number;

        /** Location course. */
        course: number;

        /** Location accuracy. */
        accuracy: number;

        /**
         * Creates a new Location instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Location instance
         */
        static create(properties: ingress.Location.$Shape): ingress.Location & ingress.Location.$Shape;
        static create(properties?: ingress.Location.$Properties): ingress.Location;

        /**
         * Encodes the specified Location message. Does not implicitly {@link ingress.Location.verify|verify} messages.
         * @param message Location message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Location.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Location message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Location & ingress.Location.$Shape} Location
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Location & ingress.Location.$Shape;

        /**
         * Creates a Location message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Location
         */
        static fromObject(object: { [k: string]: any }): ingress.Location;

        /**
         * Creates a plain object from a Location message. Also converts values to other types if specified.
         * @param message Location
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Location, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Location to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Location {

        /** Properties of a Location. */
        interface $Properties {

            /** Location timestamp */
            timestamp?: (number|Long|null);

            /** Location latitude */
            latitude?: (number|null);

            /** Location longitude */
            longitude?: (number|null);

            /** Location velocity */
            velocity?: (number|null);

            /** Location course */
            course?: (number|null);

            /** Location accuracy */
            accuracy?: (number|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Location. */
        type $Shape = ingress.Location.$Properties;
    }

    /**
     * Properties of a Wifi.
     * @deprecated Use ingress.Wifi.$Properties instead.
     */
    interface IWifi extends ingress.Wifi.$Properties {
    }

    /** Represents a Wifi. */
    class Wifi {

        /**
         * Constructs a new Wifi.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Wifi.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Wifi timestamp. */
        timestamp: (number|Long);

        /** Wifi mac. */
        mac: string;

        /** Wifi ssid. */
        ssid: string;

        /** Wifi rssi. */
        rssi: number;

        /**
         * Creates a new Wifi instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Wifi instance
         */
        static create(properties: ingress.Wifi.$Shape): ingress.Wifi & ingress.Wifi.$Shape;
        static create(properties?: ingress.Wifi.$Properties): ingress.Wifi;

        /**
         * Encodes the specified Wifi message. Does not implicitly {@link ingress.Wifi.verify|verify} messages.
         * @param message Wifi message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Wifi.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Wifi message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Wifi & ingress.Wifi.$Shape} Wifi
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Wifi & ingress.Wifi.$Shape;

        /**
         * Creates a Wifi message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Wifi
         */
        static fromObject(object: { [k: string]: any }): ingress.Wifi;

        /**
         * Creates a plain object from a Wifi message. Also converts values to other types if specified.
         * @param message Wifi
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Wifi, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Wifi to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Wifi {

        /** Properties of a Wifi. */
        interface $Properties {

            /** Wifi timestamp */
            timestamp?: (number|Long|null);

            /** Wifi mac */
            mac?: (string|null);

            /** Wifi ssid */
            ssid?: (string|null);

            /** Wifi rssi */
            rssi?: (number|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Wifi. */
        type $Shape = ingress.Wifi.$Properties;
    }

    /**
     * Properties of a IBeacon.
     * @deprecated Use ingress.IBeacon.$Properties instead.
     */
    interface IIBeacon extends ingress.IBeacon.$Properties {
    }

    /** Represents a IBeacon. */
    class IBeacon {

        /**
         * Constructs a new IBeacon.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.IBeacon.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** IBeacon timestamp. */
        timestamp: (number|Long);

        /** IBeacon uuid. */
        uuid: string;

        /** IBeacon rssi. */
        rssi: (number|Long);

        /** IBeacon major. */
        major: (number|Long);

        /** IBeacon minor. */
        minor: (number|Long);

        /** IBeacon proximity. */
        proximity: string;

        /** IBeacon accuracy. */
        accuracy: number;

        /**
         * Creates a new IBeacon instance using the specified properties.
         * @param [properties] Properties to set
         * @returns IBeacon instance
         */
        static create(properties: ingress.IBeacon.$Shape): ingress.IBeacon & ingress.IBeacon.$Shape;
        static create(properties?: ingress.IBeacon.$Properties): ingress.IBeacon;

        /**
         * Encodes the specified IBeacon message. Does not implicitly {@link ingress.IBeacon.verify|verify} messages.
         * @param message IBeacon message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.IBeacon.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a IBeacon message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.IBeacon & ingress.IBeacon.$Shape} IBeacon
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.IBeacon & ingress.IBeacon.$Shape;

        /**
         * Creates a IBeacon message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns IBeacon
         */
        static fromObject(object: { [k: string]: any }): ingress.IBeacon;

        /**
         * Creates a plain object from a IBeacon message. Also converts values to other types if specified.
         * @param message IBeacon
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.IBeacon, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this IBeacon to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace IBeacon {

        /** Properties of a IBeacon. */
        interface $Properties {

            /** IBeacon timestamp */
            timestamp?: (number|Long|null);

            /** IBeacon uuid */
            uuid?: (string|null);

            /** IBeacon rssi */
            rssi?: (number|Long|null);

            /** IBeacon major */
            major?: (number|Long|null);

            /** IBeacon minor */
            minor?: (number|Long|null);

            /** IBeacon proximity */
            proximity?: (string|null);

            /** IBeacon accuracy */
            accuracy?: (number|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a IBeacon. */
        type $Shape = ingress.IBeacon.$Properties;
    }

    /**
     * Properties of a Power.
     * @deprecated Use ingress.Power.$Properties instead.
     */
    interface IPower extends ingress.Power.$Properties {
    }

    /** Represents a Power. */
    class Power {

        /**
         * Constructs a new Power.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Power.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Power timestamp. */
        timestamp: (number|Long);

        /** Power charging. */
        charging: boolean;

        /** Power batteryLife. */
        batteryLife: (number|Long);

        /**
         * Creates a new Power instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Power instance
         */
        static create(properties: ingress.Power.$Shape): ingress.Power & ingress.Power.$Shape;
        static create(properties?: ingress.Power.$Properties): ingress.Power;

        /**
         * Encodes the specified Power message. Does not implicitly {@link ingress.Power.verify|verify} messages.
         * @param message Power message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Power.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Power message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Power & ingress.Power.$Shape} Power
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Power & ingress.Power.$Shape;

        /**
         * Creates a Power message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Power
         */
        static fromObject(object: { [k: string]: any }): ingress.Power;

        /**
         * Creates a plain object from a Power message. Also converts values to other types if specified.
         * @param message Power
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Power, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Power to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Power {

        /** Properties of a Power. */
        interface $Properties {

            /** Power timestamp */
            timestamp?: (number|Long|null);

            /** Power charging */
            charging?: (boolean|null);

            /** Power batteryLife */
            batteryLife?: (number|Long|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Power. */
        type $Shape = ingress.Power.$Properties;
    }

    /**
     * Properties of an Activity.
     * @deprecated Use ingress.Activity.$Properties instead.
     */
    interface IActivity extends ingress.Activity.$Properties {
    }

    /** Represents an Activity. */
    class Activity {

        /**
         * Constructs a new Activity.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Activity.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Activity timestamp. */
        timestamp: (number|Long);

        /** Activity type. */
        type: string;

        /** Activity confidenceLevel. */
        confidenceLevel: string;

        /**
         * Creates a new Activity instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Activity instance
         */
        static create(properties: ingress.Activity.$Shape): ingress.Activity & ingress.Activity.$Shape;
        static create(properties?: ingress.Activity.$Properties): ingress.Activity;

        /**
         * Encodes the specified Activity message. Does not implicitly {@link ingress.Activity.verify|verify} messages.
         * @param message Activity message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Activity.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an Activity message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Activity & ingress.Activity.$Shape} Activity
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Activity & ingress.Activity.$Shape;

        /**
         * Creates an Activity message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Activity
         */
        static fromObject(object: { [k: string]: any }): ingress.Activity;

        /**
         * Creates a plain object from an Activity message. Also converts values to other types if specified.
         * @param message Activity
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Activity, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Activity to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Activity {

        /** Properties of an Activity. */
        interface $Properties {

            /** Activity timestamp */
            timestamp?: (number|Long|null);

            /** Activity type */
            type?: (string|null);

            /** Activity confidenceLevel */
            confidenceLevel?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an Activity. */
        type $Shape = ingress.Activity.$Properties;
    }

    /**
     * Properties of a Configuration.
     * @deprecated Use ingress.Configuration.$Properties instead.
     */
    interface IConfiguration extends ingress.Configuration.$Properties {
    }

    /** Represents a Configuration. */
    class Configuration {

        /**
         * Constructs a new Configuration.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Configuration.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Configuration uuid. */
        uuid: string;

        /** Configuration enabled. */
        enabled: boolean;

        /** Configuration cadence. */
        cadence: (number|Long);

        /** Configuration useSensors. */
        useSensors: string[];

        /** Configuration eventTtl. */
        eventTtl: (number|Long);

        /** Configuration maxStorage. */
        maxStorage: (number|Long);

        /**
         * Creates a new Configuration instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Configuration instance
         */
        static create(properties: ingress.Configuration.$Shape): ingress.Configuration & ingress.Configuration.$Shape;
        static create(properties?: ingress.Configuration.$Properties): ingress.Configuration;

        /**
         * Encodes the specified Configuration message. Does not implicitly {@link ingress.Configuration.verify|verify} messages.
         * @param message Configuration message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Configuration.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Configuration message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Configuration & ingress.Configuration.$Shape} Configuration
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Configuration & ingress.Configuration.$Shape;

        /**
         * Creates a Configuration message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Configuration
         */
        static fromObject(object: { [k: string]: any }): ingress.Configuration;

        /**
         * Creates a plain object from a Configuration message. Also converts values to other types if specified.
         * @param message Configuration
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Configuration, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Configuration to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Configuration {

        /** Properties of a Configuration. */
        interface $Properties {

            /** Configuration uuid */
            uuid?: (string|null);

            /** Configuration enabled */
            enabled?: (boolean|null);

            /** Configuration cadence */
            cadence?: (number|Long|null);

            /** Configuration useSensors */
            useSensors?: (string[]|null);

            /** Configuration eventTtl */
            eventTtl?: (number|Long|null);

            /** Configuration maxStorage */
            maxStorage?: (number|Long|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Configuration. */
        type $Shape = ingress.Configuration.$Properties;
    }

    /**
     * Properties of a Property.
     * @deprecated Use ingress.Property.$Properties instead.
     */
    interface IProperty extends ingress.Property.$Properties {
    }

    /** Represents a Property. */
    class Property {

        /**
         * Constructs a new Property.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Property.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Property timestamp. */
        timestamp: (number|Long);

        /** Property manufacturer. */
        manufacturer: string;

        /** Property model. */
        model: string;

        /** Property os. */
        os: string;

        /** Property osVersion. */
        osVersion: string;

        /** Property softwareVersion. */
        softwareVersion: string;

        /** Property type. */
        type: string;

        /** Property sensors. */
        sensors: string[];

        /** Property name. */
        name: string;

        /**
         * Creates a new Property instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Property instance
         */
        static create(properties: ingress.Property.$Shape): ingress.Property & ingress.Property.$Shape;
        static create(properties?: ingress.Property.$Properties): ingress.Property;

        /**
         * Encodes the specified Property message. Does not implicitly {@link ingress.Property.verify|verify} messages.
         * @param message Property message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Property.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Property message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Property & ingress.Property.$Shape} Property
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Property & ingress.Property.$Shape;

        /**
         * Creates a Property message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Property
         */
        static fromObject(object: { [k: string]: any }): ingress.Property;

        /**
         * Creates a plain object from a Property message. Also converts values to other types if specified.
         * @param message Property
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Property, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Property to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Property {

        /** Properties of a Property. */
        interface $Properties {

            /** Property timestamp */
            timestamp?: (number|Long|null);

            /** Property manufacturer */
            manufacturer?: (string|null);

            /** Property model */
            model?: (string|null);

            /** Property os */
            os?: (string|null);

            /** Property osVersion */
            osVersion?: (string|null);

            /** Property softwareVersion */
            softwareVersion?: (string|null);

            /** Property type */
            type?: (string|null);

            /** Property sensors */
            sensors?: (string[]|null);

            /** Property name */
            name?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Property. */
        type $Shape = ingress.Property.$Properties;
    }

    /**
     * Properties of a Push.
     * @deprecated Use ingress.Push.$Properties instead.
     */
    interface IPush extends ingress.Push.$Properties {
    }

    /** Represents a Push. */
    class Push {

        /**
         * Constructs a new Push.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Push.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Push timestamp. */
        timestamp: (number|Long);

        /** Push token. */
        token: string;

        /** Push type. */
        type: string;

        /**
         * Creates a new Push instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Push instance
         */
        static create(properties: ingress.Push.$Shape): ingress.Push & ingress.Push.$Shape;
        static create(properties?: ingress.Push.$Properties): ingress.Push;

        /**
         * Encodes the specified Push message. Does not implicitly {@link ingress.Push.verify|verify} messages.
         * @param message Push message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Push.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Push message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Push & ingress.Push.$Shape} Push
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Push & ingress.Push.$Shape;

        /**
         * Creates a Push message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Push
         */
        static fromObject(object: { [k: string]: any }): ingress.Push;

        /**
         * Creates a plain object from a Push message. Also converts values to other types if specified.
         * @param message Push
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Push, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Push to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Push {

        /** Properties of a Push. */
        interface $Properties {

            /** Push timestamp */
            timestamp?: (number|Long|null);

            /** Push token */
            token?: (string|null);

            /** Push type */
            type?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Push. */
        type $Shape = ingress.Push.$Properties;
    }

    /**
     * Properties of an Error.
     * @deprecated Use ingress.Error.$Properties instead.
     */
    interface IError extends ingress.Error.$Properties {
    }

    /** Represents an Error. */
    class Error {

        /**
         * Constructs a new Error.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Error.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Error errorCode. */
        errorCode: number;

        /** Error errorMessage. */
        errorMessage: string;

        /**
         * Creates a new Error instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Error instance
         */
        static create(properties: ingress.Error.$Shape): ingress.Error & ingress.Error.$Shape;
        static create(properties?: ingress.Error.$Properties): ingress.Error;

        /**
         * Encodes the specified Error message. Does not implicitly {@link ingress.Error.verify|verify} messages.
         * @param message Error message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Error.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an Error message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Error & ingress.Error.$Shape} Error
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Error & ingress.Error.$Shape;

        /**
         * Creates an Error message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Error
         */
        static fromObject(object: { [k: string]: any }): ingress.Error;

        /**
         * Creates a plain object from an Error message. Also converts values to other types if specified.
         * @param message Error
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Error, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Error to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Error {

        /** Properties of an Error. */
        interface $Properties {

            /** Error errorCode */
            errorCode?: (number|null);

            /** Error errorMessage */
            errorMessage?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an Error. */
        type $Shape = ingress.Error.$Properties;
    }

    /**
     * Properties of an Event.
     * @deprecated Use ingress.Event.$Properties instead.
     */
    interface IEvent extends ingress.Event.$Properties {
    }

    /** Represents an Event. */
    class Event {

        /**
         * Constructs a new Event.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Event.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Event timestamp. */
        timestamp: (number|Long);

        /** Event locations. */
        locations: ingress.Location.$Properties[];

        /** Event wifis. */
        wifis: ingress.Wifi.$Properties[];

        /** Event ibeacons. */
        ibeacons: ingress.IBeacon.$Properties[];

        /** Event powers. */
        powers: ingress.Power.$Properties[];

        /** Event activities. */
        activities: ingress.Activity.$Properties[];

        /** Event configurations. */
        configurations?: (ingress.Configuration.$Properties|null);

        /** Event properties. */
        properties?: (ingress.Property.$Properties|null);

        /** Event push. */
        push?: (ingress.Push.$Properties|null);

        /** Event attributes. */
        attributes: { [k: string]: string };

        /** Event error. */
        error: ingress.Error.$Properties[];

        /**
         * Creates a new Event instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Event instance
         */
        static create(properties: ingress.Event.$Shape): ingress.Event & ingress.Event.$Shape;
        static create(properties?: ingress.Event.$Properties): ingress.Event;

        /**
         * Encodes the specified Event message. Does not implicitly {@link ingress.Event.verify|verify} messages.
         * @param message Event message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Event.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an Event message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Event & ingress.Event.$Shape} Event
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Event & ingress.Event.$Shape;

        /**
         * Creates an Event message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Event
         */
        static fromObject(object: { [k: string]: any }): ingress.Event;

        /**
         * Creates a plain object from an Event message. Also converts values to other types if specified.
         * @param message Event
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Event, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Event to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Event {

        /** Properties of an Event. */
        interface $Properties {

            /** Event timestamp */
            timestamp?: (number|Long|null);

            /** Event locations */
            locations?: (ingress.Location.$Properties[]|null);

            /** Event wifis */
            wifis?: (ingress.Wifi.$Properties[]|null);

            /** Event ibeacons */
            ibeacons?: (ingress.IBeacon.$Properties[]|null);

            /** Event powers */
            powers?: (ingress.Power.$Properties[]|null);

            /** Event activities */
            activities?: (ingress.Activity.$Properties[]|null);

            /** Event configurations */
            configurations?: (ingress.Configuration.$Properties|null);

            /** Event properties */
            properties?: (ingress.Property.$Properties|null);

            /** Event push */
            push?: (ingress.Push.$Properties|null);

            /** Event attributes */
            attributes?: ({ [k: string]: string }|null);

            /** Event error */
            error?: (ingress.Error.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an Event. */
        type $Shape = ingress.Event.$Properties;
    }

    /**
     * Properties of a MobileEvents.
     * @deprecated Use ingress.MobileEvents.$Properties instead.
     */
    interface IMobileEvents extends ingress.MobileEvents.$Properties {
    }

    /** Represents a MobileEvents. */
    class MobileEvents {

        /**
         * Constructs a new MobileEvents.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.MobileEvents.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** MobileEvents events. */
        events: ingress.Event.$Properties[];

        /**
         * Creates a new MobileEvents instance using the specified properties.
         * @param [properties] Properties to set
         * @returns MobileEvents instance
         */
        static create(properties: ingress.MobileEvents.$Shape): ingress.MobileEvents & ingress.MobileEvents.$Shape;
        static create(properties?: ingress.MobileEvents.$Properties): ingress.MobileEvents;

        /**
         * Encodes the specified MobileEvents message. Does not implicitly {@link ingress.MobileEvents.verify|verify} messages.
         * @param message MobileEvents message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.MobileEvents.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a MobileEvents message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.MobileEvents & ingress.MobileEvents.$Shape} MobileEvents
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.MobileEvents & ingress.MobileEvents.$Shape;

        /**
         * Creates a MobileEvents message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns MobileEvents
         */
        static fromObject(object: { [k: string]: any }): ingress.MobileEvents;

        /**
         * Creates a plain object from a MobileEvents message. Also converts values to other types if specified.
         * @param message MobileEvents
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.MobileEvents, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this MobileEvents to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace MobileEvents {

        /** Properties of a MobileEvents. */
        interface $Properties {

            /** MobileEvents events */
            events?: (ingress.Event.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a MobileEvents. */
        type $Shape = ingress.MobileEvents.$Properties;
    }

    /**
     * Properties of a GenericEvent.
     * @deprecated Use ingress.GenericEvent.$Properties instead.
     */
    interface IGenericEvent extends ingress.GenericEvent.$Properties {
    }

    /** Represents a GenericEvent. */
    class GenericEvent {

        /**
         * Constructs a new GenericEvent.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.GenericEvent.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** GenericEvent id. */
        id: string;

        /** GenericEvent organization_id. */
        organization_id: string;

        /** GenericEvent channel_id. */
        channel_id: string;

        /** GenericEvent device_id. */
        device_id: string;

        /** GenericEvent server_recieved_at. */
        server_recieved_at: (number|Long);

        /** GenericEvent client_sent_at. */
        client_sent_at: (number|Long);

        /** GenericEvent source. */
        source: ingress.GenericEvent.Source;

        /** GenericEvent payload. */
        payload: Uint8Array;

        /**
         * Creates a new GenericEvent instance using the specified properties.
         * @param [properties] Properties to set
         * @returns GenericEvent instance
         */
        static create(properties: ingress.GenericEvent.$Shape): ingress.GenericEvent & ingress.GenericEvent.$Shape;
        static create(properties?: ingress.GenericEvent.$Properties): ingress.GenericEvent;

        /**
         * Encodes the specified GenericEvent message. Does not implicitly {@link ingress.GenericEvent.verify|verify} messages.
         * @param message GenericEvent message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.GenericEvent.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a GenericEvent message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.GenericEvent & ingress.GenericEvent.$Shape} GenericEvent
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GenericEvent & ingress.GenericEvent.$Shape;

        /**
         * Creates a GenericEvent message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns GenericEvent
         */
        static fromObject(object: { [k: string]: any }): ingress.GenericEvent;

        /**
         * Creates a plain object from a GenericEvent message. Also converts values to other types if specified.
         * @param message GenericEvent
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.GenericEvent, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this GenericEvent to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace GenericEvent {

        /** Properties of a GenericEvent. */
        interface $Properties {

            /** GenericEvent id */
            id?: (string|null);

            /** GenericEvent organization_id */
            organization_id?: (string|null);

            /** GenericEvent channel_id */
            channel_id?: (string|null);

            /** GenericEvent device_id */
            device_id?: (string|null);

            /** GenericEvent server_recieved_at */
            server_recieved_at?: (number|Long|null);

            /** GenericEvent client_sent_at */
            client_sent_at?: (number|Long|null);

            /** GenericEvent source */
            source?: (ingress.GenericEvent.Source|null);

            /** GenericEvent payload */
            payload?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a GenericEvent. */
        type $Shape = ingress.GenericEvent.$Properties;

        /** Source enum. */
        enum Source {

            /** MOBILE value */
            MOBILE = 0,

            /** IOT value */
            IOT = 1
        }
    }

    /**
     * Properties of a RegistrationRequest.
     * @deprecated Use ingress.RegistrationRequest.$Properties instead.
     */
    interface IRegistrationRequest extends ingress.RegistrationRequest.$Properties {
    }

    /** Represents a RegistrationRequest. */
    class RegistrationRequest {

        /**
         * Constructs a new RegistrationRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.RegistrationRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** RegistrationRequest apiKey. */
        apiKey: string;

        /** RegistrationRequest properties. */
        properties?: (ingress.Property.$Properties|null);

        /** RegistrationRequest aliases. */
        aliases: { [k: string]: string };

        /**
         * Creates a new RegistrationRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns RegistrationRequest instance
         */
        static create(properties: ingress.RegistrationRequest.$Shape): ingress.RegistrationRequest & ingress.RegistrationRequest.$Shape;
        static create(properties?: ingress.RegistrationRequest.$Properties): ingress.RegistrationRequest;

        /**
         * Encodes the specified RegistrationRequest message. Does not implicitly {@link ingress.RegistrationRequest.verify|verify} messages.
         * @param message RegistrationRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.RegistrationRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a RegistrationRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.RegistrationRequest & ingress.RegistrationRequest.$Shape} RegistrationRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.RegistrationRequest & ingress.RegistrationRequest.$Shape;

        /**
         * Creates a RegistrationRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns RegistrationRequest
         */
        static fromObject(object: { [k: string]: any }): ingress.RegistrationRequest;

        /**
         * Creates a plain object from a RegistrationRequest message. Also converts values to other types if specified.
         * @param message RegistrationRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.RegistrationRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this RegistrationRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace RegistrationRequest {

        /** Properties of a RegistrationRequest. */
        interface $Properties {

            /** RegistrationRequest apiKey */
            apiKey?: (string|null);

            /** RegistrationRequest properties */
            properties?: (ingress.Property.$Properties|null);

            /** RegistrationRequest aliases */
            aliases?: ({ [k: string]: string }|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a RegistrationRequest. */
        type $Shape = ingress.RegistrationRequest.$Properties;
    }

    /**
     * Properties of a RegistrationResponse.
     * @deprecated Use ingress.RegistrationResponse.$Properties instead.
     */
    interface IRegistrationResponse extends ingress.RegistrationResponse.$Properties {
    }

    /** Represents a RegistrationResponse. */
    class RegistrationResponse {

        /**
         * Constructs a new RegistrationResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.RegistrationResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** RegistrationResponse token. */
        token: string;

        /** RegistrationResponse deviceId. */
        deviceId: string;

        /** RegistrationResponse organizationId. */
        organizationId: string;

        /**
         * Creates a new RegistrationResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns RegistrationResponse instance
         */
        static create(properties: ingress.RegistrationResponse.$Shape): ingress.RegistrationResponse & ingress.RegistrationResponse.$Shape;
        static create(properties?: ingress.RegistrationResponse.$Properties): ingress.RegistrationResponse;

        /**
         * Encodes the specified RegistrationResponse message. Does not implicitly {@link ingress.RegistrationResponse.verify|verify} messages.
         * @param message RegistrationResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.RegistrationResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a RegistrationResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.RegistrationResponse & ingress.RegistrationResponse.$Shape} RegistrationResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.RegistrationResponse & ingress.RegistrationResponse.$Shape;

        /**
         * Creates a RegistrationResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns RegistrationResponse
         */
        static fromObject(object: { [k: string]: any }): ingress.RegistrationResponse;

        /**
         * Creates a plain object from a RegistrationResponse message. Also converts values to other types if specified.
         * @param message RegistrationResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.RegistrationResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this RegistrationResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace RegistrationResponse {

        /** Properties of a RegistrationResponse. */
        interface $Properties {

            /** RegistrationResponse token */
            token?: (string|null);

            /** RegistrationResponse deviceId */
            deviceId?: (string|null);

            /** RegistrationResponse organizationId */
            organizationId?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a RegistrationResponse. */
        type $Shape = ingress.RegistrationResponse.$Properties;
    }

    /**
     * Properties of a IBeaconsResponse.
     * @deprecated Use ingress.IBeaconsResponse.$Properties instead.
     */
    interface IIBeaconsResponse extends ingress.IBeaconsResponse.$Properties {
    }

    /** Represents a IBeaconsResponse. */
    class IBeaconsResponse {

        /**
         * Constructs a new IBeaconsResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.IBeaconsResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** IBeaconsResponse uuids. */
        uuids: string[];

        /**
         * Creates a new IBeaconsResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns IBeaconsResponse instance
         */
        static create(properties: ingress.IBeaconsResponse.$Shape): ingress.IBeaconsResponse & ingress.IBeaconsResponse.$Shape;
        static create(properties?: ingress.IBeaconsResponse.$Properties): ingress.IBeaconsResponse;

        /**
         * Encodes the specified IBeaconsResponse message. Does not implicitly {@link ingress.IBeaconsResponse.verify|verify} messages.
         * @param message IBeaconsResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.IBeaconsResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a IBeaconsResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.IBeaconsResponse & ingress.IBeaconsResponse.$Shape} IBeaconsResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.IBeaconsResponse & ingress.IBeaconsResponse.$Shape;

        /**
         * Creates a IBeaconsResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns IBeaconsResponse
         */
        static fromObject(object: { [k: string]: any }): ingress.IBeaconsResponse;

        /**
         * Creates a plain object from a IBeaconsResponse message. Also converts values to other types if specified.
         * @param message IBeaconsResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.IBeaconsResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this IBeaconsResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace IBeaconsResponse {

        /** Properties of a IBeaconsResponse. */
        interface $Properties {

            /** IBeaconsResponse uuids */
            uuids?: (string[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a IBeaconsResponse. */
        type $Shape = ingress.IBeaconsResponse.$Properties;
    }

    /**
     * Properties of a Rule.
     * @deprecated Use ingress.Rule.$Properties instead.
     */
    interface IRule extends ingress.Rule.$Properties {
    }

    /** Represents a Rule. */
    class Rule {

        /**
         * Constructs a new Rule.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Rule.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Rule id. */
        id: string;

        /** Rule name. */
        name: string;

        /** Rule type. */
        type: string;

        /** Rule enabled. */
        enabled: boolean;

        /** Rule conditions. */
        conditions: string;

        /** Rule conditionObject. */
        conditionObject: string;

        /** Rule actionsJson. */
        actionsJson: string;

        /** Rule description. */
        description: string;

        /** Rule createdAt. */
        createdAt: (number|Long);

        /** Rule updatedAt. */
        updatedAt: (number|Long);

        /** Rule generator. */
        generator: string;

        /** Rule organizationId. */
        organizationId: string;

        /** Rule channelIds. */
        channelIds: string[];

        /** Rule projectId. */
        projectId: string;

        /** Rule tags. */
        tags: string[];

        /** Rule throttleInSeconds. */
        throttleInSeconds: (number|Long);

        /**
         * Creates a new Rule instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Rule instance
         */
        static create(properties: ingress.Rule.$Shape): ingress.Rule & ingress.Rule.$Shape;
        static create(properties?: ingress.Rule.$Properties): ingress.Rule;

        /**
         * Encodes the specified Rule message. Does not implicitly {@link ingress.Rule.verify|verify} messages.
         * @param message Rule message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Rule.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Rule message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Rule & ingress.Rule.$Shape} Rule
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Rule & ingress.Rule.$Shape;

        /**
         * Creates a Rule message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Rule
         */
        static fromObject(object: { [k: string]: any }): ingress.Rule;

        /**
         * Creates a plain object from a Rule message. Also converts values to other types if specified.
         * @param message Rule
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Rule, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Rule to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Rule {

        /** Properties of a Rule. */
        interface $Properties {

            /** Rule id */
            id?: (string|null);

            /** Rule name */
            name?: (string|null);

            /** Rule type */
            type?: (string|null);

            /** Rule enabled */
            enabled?: (boolean|null);

            /** Rule conditions */
            conditions?: (string|null);

            /** Rule conditionObject */
            conditionObject?: (string|null);

            /** Rule actionsJson */
            actionsJson?: (string|null);

            /** Rule description */
            description?: (string|null);

            /** Rule createdAt */
            createdAt?: (number|Long|null);

            /** Rule updatedAt */
            updatedAt?: (number|Long|null);

            /** Rule generator */
            generator?: (string|null);

            /** Rule organizationId */
            organizationId?: (string|null);

            /** Rule channelIds */
            channelIds?: (string[]|null);

            /** Rule projectId */
            projectId?: (string|null);

            /** Rule tags */
            tags?: (string[]|null);

            /** Rule throttleInSeconds */
            throttleInSeconds?: (number|Long|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Rule. */
        type $Shape = ingress.Rule.$Properties;
    }

    /**
     * Properties of a RulesResponse.
     * @deprecated Use ingress.RulesResponse.$Properties instead.
     */
    interface IRulesResponse extends ingress.RulesResponse.$Properties {
    }

    /** Represents a RulesResponse. */
    class RulesResponse {

        /**
         * Constructs a new RulesResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.RulesResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** RulesResponse rules. */
        rules: ingress.Rule.$Properties[];

        /**
         * Creates a new RulesResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns RulesResponse instance
         */
        static create(properties: ingress.RulesResponse.$Shape): ingress.RulesResponse & ingress.RulesResponse.$Shape;
        static create(properties?: ingress.RulesResponse.$Properties): ingress.RulesResponse;

        /**
         * Encodes the specified RulesResponse message. Does not implicitly {@link ingress.RulesResponse.verify|verify} messages.
         * @param message RulesResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.RulesResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a RulesResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.RulesResponse & ingress.RulesResponse.$Shape} RulesResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.RulesResponse & ingress.RulesResponse.$Shape;

        /**
         * Creates a RulesResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns RulesResponse
         */
        static fromObject(object: { [k: string]: any }): ingress.RulesResponse;

        /**
         * Creates a plain object from a RulesResponse message. Also converts values to other types if specified.
         * @param message RulesResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.RulesResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this RulesResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace RulesResponse {

        /** Properties of a RulesResponse. */
        interface $Properties {

            /** RulesResponse rules */
            rules?: (ingress.Rule.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a RulesResponse. */
        type $Shape = ingress.RulesResponse.$Properties;
    }

    /**
     * Properties of a RuleXChannel.
     * @deprecated Use ingress.RuleXChannel.$Properties instead.
     */
    interface IRuleXChannel extends ingress.RuleXChannel.$Properties {
    }

    /** Represents a RuleXChannel. */
    class RuleXChannel {

        /**
         * Constructs a new RuleXChannel.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.RuleXChannel.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** RuleXChannel rule_id. */
        rule_id: string;

        /** RuleXChannel channel_id. */
        channel_id: string;

        /**
         * Creates a new RuleXChannel instance using the specified properties.
         * @param [properties] Properties to set
         * @returns RuleXChannel instance
         */
        static create(properties: ingress.RuleXChannel.$Shape): ingress.RuleXChannel & ingress.RuleXChannel.$Shape;
        static create(properties?: ingress.RuleXChannel.$Properties): ingress.RuleXChannel;

        /**
         * Encodes the specified RuleXChannel message. Does not implicitly {@link ingress.RuleXChannel.verify|verify} messages.
         * @param message RuleXChannel message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.RuleXChannel.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a RuleXChannel message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.RuleXChannel & ingress.RuleXChannel.$Shape} RuleXChannel
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.RuleXChannel & ingress.RuleXChannel.$Shape;

        /**
         * Creates a RuleXChannel message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns RuleXChannel
         */
        static fromObject(object: { [k: string]: any }): ingress.RuleXChannel;

        /**
         * Creates a plain object from a RuleXChannel message. Also converts values to other types if specified.
         * @param message RuleXChannel
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.RuleXChannel, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this RuleXChannel to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace RuleXChannel {

        /** Properties of a RuleXChannel. */
        interface $Properties {

            /** RuleXChannel rule_id */
            rule_id?: (string|null);

            /** RuleXChannel channel_id */
            channel_id?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a RuleXChannel. */
        type $Shape = ingress.RuleXChannel.$Properties;
    }

    /**
     * Properties of a Landmark.
     * @deprecated Use ingress.Landmark.$Properties instead.
     */
    interface ILandmark extends ingress.Landmark.$Properties {
    }

    /** Represents a Landmark. */
    class Landmark {

        /**
         * Constructs a new Landmark.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Landmark.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Landmark id. */
        id: string;

        /** Landmark type. */
        type: string;

        /** Landmark shape. */
        shape: Uint8Array;

        /**
         * Creates a new Landmark instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Landmark instance
         */
        static create(properties: ingress.Landmark.$Shape): ingress.Landmark & ingress.Landmark.$Shape;
        static create(properties?: ingress.Landmark.$Properties): ingress.Landmark;

        /**
         * Encodes the specified Landmark message. Does not implicitly {@link ingress.Landmark.verify|verify} messages.
         * @param message Landmark message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Landmark.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Landmark message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Landmark & ingress.Landmark.$Shape} Landmark
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Landmark & ingress.Landmark.$Shape;

        /**
         * Creates a Landmark message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Landmark
         */
        static fromObject(object: { [k: string]: any }): ingress.Landmark;

        /**
         * Creates a plain object from a Landmark message. Also converts values to other types if specified.
         * @param message Landmark
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Landmark, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Landmark to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Landmark {

        /** Properties of a Landmark. */
        interface $Properties {

            /** Landmark id */
            id?: (string|null);

            /** Landmark type */
            type?: (string|null);

            /** Landmark shape */
            shape?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Landmark. */
        type $Shape = ingress.Landmark.$Properties;
    }

    /**
     * Properties of a GatewayRegistrationRequest.
     * @deprecated Use ingress.GatewayRegistrationRequest.$Properties instead.
     */
    interface IGatewayRegistrationRequest extends ingress.GatewayRegistrationRequest.$Properties {
    }

    /** Represents a GatewayRegistrationRequest. */
    class GatewayRegistrationRequest {

        /**
         * Constructs a new GatewayRegistrationRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.GatewayRegistrationRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** GatewayRegistrationRequest api_key. */
        api_key: string;

        /** GatewayRegistrationRequest machine_id. */
        machine_id: string;

        /** GatewayRegistrationRequest system_info. */
        system_info?: (ingress.GatewayRegistrationRequest.SystemInfo.$Properties|null);

        /**
         * Creates a new GatewayRegistrationRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns GatewayRegistrationRequest instance
         */
        static create(properties: ingress.GatewayRegistrationRequest.$Shape): ingress.GatewayRegistrationRequest & ingress.GatewayRegistrationRequest.$Shape;
        static create(properties?: ingress.GatewayRegistrationRequest.$Properties): ingress.GatewayRegistrationRequest;

        /**
         * Encodes the specified GatewayRegistrationRequest message. Does not implicitly {@link ingress.GatewayRegistrationRequest.verify|verify} messages.
         * @param message GatewayRegistrationRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.GatewayRegistrationRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a GatewayRegistrationRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.GatewayRegistrationRequest & ingress.GatewayRegistrationRequest.$Shape} GatewayRegistrationRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GatewayRegistrationRequest & ingress.GatewayRegistrationRequest.$Shape;

        /**
         * Creates a GatewayRegistrationRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns GatewayRegistrationRequest
         */
        static fromObject(object: { [k: string]: any }): ingress.GatewayRegistrationRequest;

        /**
         * Creates a plain object from a GatewayRegistrationRequest message. Also converts values to other types if specified.
         * @param message GatewayRegistrationRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.GatewayRegistrationRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this GatewayRegistrationRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace GatewayRegistrationRequest {

        /** Properties of a GatewayRegistrationRequest. */
        interface $Properties {

            /** GatewayRegistrationRequest api_key */
            api_key?: (string|null);

            /** GatewayRegistrationRequest machine_id */
            machine_id?: (string|null);

            /** GatewayRegistrationRequest system_info */
            system_info?: (ingress.GatewayRegistrationRequest.SystemInfo.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a GatewayRegistrationRequest. */
        type $Shape = ingress.GatewayRegistrationRequest.$Properties;

        /**
         * Properties of a SystemInfo.
         * @deprecated Use ingress.GatewayRegistrationRequest.SystemInfo.$Properties instead.
         */
        interface ISystemInfo extends ingress.GatewayRegistrationRequest.SystemInfo.$Properties {
        }

        /** Represents a SystemInfo. */
        class SystemInfo {

            /**
             * Constructs a new SystemInfo.
             * @param [properties] Properties to set
             */
            constructor(properties?: ingress.GatewayRegistrationRequest.SystemInfo.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** SystemInfo os. */
            os: string;

            /** SystemInfo arch. */
            arch: string;

            /** SystemInfo cpu. */
            cpu: string;

            /** SystemInfo gpu. */
            gpu: string;

            /** SystemInfo memory. */
            memory: string;

            /** SystemInfo storage. */
            storage: string;

            /** SystemInfo make. */
            make: string;

            /**
             * Creates a new SystemInfo instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SystemInfo instance
             */
            static create(properties: ingress.GatewayRegistrationRequest.SystemInfo.$Shape): ingress.GatewayRegistrationRequest.SystemInfo & ingress.GatewayRegistrationRequest.SystemInfo.$Shape;
            static create(properties?: ingress.GatewayRegistrationRequest.SystemInfo.$Properties): ingress.GatewayRegistrationRequest.SystemInfo;

            /**
             * Encodes the specified SystemInfo message. Does not implicitly {@link ingress.GatewayRegistrationRequest.SystemInfo.verify|verify} messages.
             * @param message SystemInfo message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ingress.GatewayRegistrationRequest.SystemInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SystemInfo message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ingress.GatewayRegistrationRequest.SystemInfo & ingress.GatewayRegistrationRequest.SystemInfo.$Shape} SystemInfo
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GatewayRegistrationRequest.SystemInfo & ingress.GatewayRegistrationRequest.SystemInfo.$Shape;

            /**
             * Creates a SystemInfo message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SystemInfo
             */
            static fromObject(object: { [k: string]: any }): ingress.GatewayRegistrationRequest.SystemInfo;

            /**
             * Creates a plain object from a SystemInfo message. Also converts values to other types if specified.
             * @param message SystemInfo
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ingress.GatewayRegistrationRequest.SystemInfo, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SystemInfo to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace SystemInfo {

            /** Properties of a SystemInfo. */
            interface $Properties {

                /** SystemInfo os */
                os?: (string|null);

                /** SystemInfo arch */
                arch?: (string|null);

                /** SystemInfo cpu */
                cpu?: (string|null);

                /** SystemInfo gpu */
                gpu?: (string|null);

                /** SystemInfo memory */
                memory?: (string|null);

                /** SystemInfo storage */
                storage?: (string|null);

                /** SystemInfo make */
                make?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SystemInfo. */
            type $Shape = ingress.GatewayRegistrationRequest.SystemInfo.$Properties;
        }
    }

    /**
     * Properties of a GatewayRegistrationResponse.
     * @deprecated Use ingress.GatewayRegistrationResponse.$Properties instead.
     */
    interface IGatewayRegistrationResponse extends ingress.GatewayRegistrationResponse.$Properties {
    }

    /** Represents a GatewayRegistrationResponse. */
    class GatewayRegistrationResponse {

        /**
         * Constructs a new GatewayRegistrationResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.GatewayRegistrationResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** GatewayRegistrationResponse token. */
        token: string;

        /**
         * Creates a new GatewayRegistrationResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns GatewayRegistrationResponse instance
         */
        static create(properties: ingress.GatewayRegistrationResponse.$Shape): ingress.GatewayRegistrationResponse & ingress.GatewayRegistrationResponse.$Shape;
        static create(properties?: ingress.GatewayRegistrationResponse.$Properties): ingress.GatewayRegistrationResponse;

        /**
         * Encodes the specified GatewayRegistrationResponse message. Does not implicitly {@link ingress.GatewayRegistrationResponse.verify|verify} messages.
         * @param message GatewayRegistrationResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.GatewayRegistrationResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a GatewayRegistrationResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.GatewayRegistrationResponse & ingress.GatewayRegistrationResponse.$Shape} GatewayRegistrationResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GatewayRegistrationResponse & ingress.GatewayRegistrationResponse.$Shape;

        /**
         * Creates a GatewayRegistrationResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns GatewayRegistrationResponse
         */
        static fromObject(object: { [k: string]: any }): ingress.GatewayRegistrationResponse;

        /**
         * Creates a plain object from a GatewayRegistrationResponse message. Also converts values to other types if specified.
         * @param message GatewayRegistrationResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.GatewayRegistrationResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this GatewayRegistrationResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace GatewayRegistrationResponse {

        /** Properties of a GatewayRegistrationResponse. */
        interface $Properties {

            /** GatewayRegistrationResponse token */
            token?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a GatewayRegistrationResponse. */
        type $Shape = ingress.GatewayRegistrationResponse.$Properties;
    }

    /**
     * Properties of a GatewaySyncRequest.
     * @deprecated Use ingress.GatewaySyncRequest.$Properties instead.
     */
    interface IGatewaySyncRequest extends ingress.GatewaySyncRequest.$Properties {
    }

    /** Represents a GatewaySyncRequest. */
    class GatewaySyncRequest {

        /**
         * Constructs a new GatewaySyncRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.GatewaySyncRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** GatewaySyncRequest last_synced_at. */
        last_synced_at: (number|Long);

        /** GatewaySyncRequest totalDeviceRegistration. */
        totalDeviceRegistration: (number|Long);

        /** GatewaySyncRequest devices. */
        devices: ingress.GatewaySyncRequest.Summary.$Properties[];

        /**
         * Creates a new GatewaySyncRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns GatewaySyncRequest instance
         */
        static create(properties: ingress.GatewaySyncRequest.$Shape): ingress.GatewaySyncRequest & ingress.GatewaySyncRequest.$Shape;
        static create(properties?: ingress.GatewaySyncRequest.$Properties): ingress.GatewaySyncRequest;

        /**
         * Encodes the specified GatewaySyncRequest message. Does not implicitly {@link ingress.GatewaySyncRequest.verify|verify} messages.
         * @param message GatewaySyncRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.GatewaySyncRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a GatewaySyncRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.GatewaySyncRequest & ingress.GatewaySyncRequest.$Shape} GatewaySyncRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GatewaySyncRequest & ingress.GatewaySyncRequest.$Shape;

        /**
         * Creates a GatewaySyncRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns GatewaySyncRequest
         */
        static fromObject(object: { [k: string]: any }): ingress.GatewaySyncRequest;

        /**
         * Creates a plain object from a GatewaySyncRequest message. Also converts values to other types if specified.
         * @param message GatewaySyncRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.GatewaySyncRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this GatewaySyncRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace GatewaySyncRequest {

        /** Properties of a GatewaySyncRequest. */
        interface $Properties {

            /** GatewaySyncRequest last_synced_at */
            last_synced_at?: (number|Long|null);

            /** GatewaySyncRequest totalDeviceRegistration */
            totalDeviceRegistration?: (number|Long|null);

            /** GatewaySyncRequest devices */
            devices?: (ingress.GatewaySyncRequest.Summary.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a GatewaySyncRequest. */
        type $Shape = ingress.GatewaySyncRequest.$Properties;

        /**
         * Properties of a Summary.
         * @deprecated Use ingress.GatewaySyncRequest.Summary.$Properties instead.
         */
        interface ISummary extends ingress.GatewaySyncRequest.Summary.$Properties {
        }

        /** Represents a Summary. */
        class Summary {

            /**
             * Constructs a new Summary.
             * @param [properties] Properties to set
             */
            constructor(properties?: ingress.GatewaySyncRequest.Summary.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Summary id. */
            id: string;

            /** Summary totalEvents. */
            totalEvents: (number|Long);

            /** Summary successfulEvents. */
            successfulEvents: (number|Long);

            /** Summary actionExecuted. */
            actionExecuted: (number|Long);

            /**
             * Creates a new Summary instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Summary instance
             */
            static create(properties: ingress.GatewaySyncRequest.Summary.$Shape): ingress.GatewaySyncRequest.Summary & ingress.GatewaySyncRequest.Summary.$Shape;
            static create(properties?: ingress.GatewaySyncRequest.Summary.$Properties): ingress.GatewaySyncRequest.Summary;

            /**
             * Encodes the specified Summary message. Does not implicitly {@link ingress.GatewaySyncRequest.Summary.verify|verify} messages.
             * @param message Summary message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ingress.GatewaySyncRequest.Summary.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Summary message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ingress.GatewaySyncRequest.Summary & ingress.GatewaySyncRequest.Summary.$Shape} Summary
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GatewaySyncRequest.Summary & ingress.GatewaySyncRequest.Summary.$Shape;

            /**
             * Creates a Summary message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Summary
             */
            static fromObject(object: { [k: string]: any }): ingress.GatewaySyncRequest.Summary;

            /**
             * Creates a plain object from a Summary message. Also converts values to other types if specified.
             * @param message Summary
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ingress.GatewaySyncRequest.Summary, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Summary to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace Summary {

            /** Properties of a Summary. */
            interface $Properties {

                /** Summary id */
                id?: (string|null);

                /** Summary totalEvents */
                totalEvents?: (number|Long|null);

                /** Summary successfulEvents */
                successfulEvents?: (number|Long|null);

                /** Summary actionExecuted */
                actionExecuted?: (number|Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Summary. */
            type $Shape = ingress.GatewaySyncRequest.Summary.$Properties;
        }
    }

    /**
     * Properties of a GatewaySyncResponse.
     * @deprecated Use ingress.GatewaySyncResponse.$Properties instead.
     */
    interface IGatewaySyncResponse extends ingress.GatewaySyncResponse.$Properties {
    }

    /** Represents a GatewaySyncResponse. */
    class GatewaySyncResponse {

        /**
         * Constructs a new GatewaySyncResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.GatewaySyncResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** GatewaySyncResponse rules. */
        rules: ingress.Rule.$Properties[];

        /** GatewaySyncResponse rule_x_channel. */
        rule_x_channel: ingress.RuleXChannel.$Properties[];

        /** GatewaySyncResponse landmarks. */
        landmarks: ingress.Landmark.$Properties[];

        /** GatewaySyncResponse deleted. */
        deleted?: (ingress.GatewaySyncResponse.Deleted.$Properties|null);

        /**
         * Creates a new GatewaySyncResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns GatewaySyncResponse instance
         */
        static create(properties: ingress.GatewaySyncResponse.$Shape): ingress.GatewaySyncResponse & ingress.GatewaySyncResponse.$Shape;
        static create(properties?: ingress.GatewaySyncResponse.$Properties): ingress.GatewaySyncResponse;

        /**
         * Encodes the specified GatewaySyncResponse message. Does not implicitly {@link ingress.GatewaySyncResponse.verify|verify} messages.
         * @param message GatewaySyncResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.GatewaySyncResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a GatewaySyncResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.GatewaySyncResponse & ingress.GatewaySyncResponse.$Shape} GatewaySyncResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GatewaySyncResponse & ingress.GatewaySyncResponse.$Shape;

        /**
         * Creates a GatewaySyncResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns GatewaySyncResponse
         */
        static fromObject(object: { [k: string]: any }): ingress.GatewaySyncResponse;

        /**
         * Creates a plain object from a GatewaySyncResponse message. Also converts values to other types if specified.
         * @param message GatewaySyncResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.GatewaySyncResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this GatewaySyncResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace GatewaySyncResponse {

        /** Properties of a GatewaySyncResponse. */
        interface $Properties {

            /** GatewaySyncResponse rules */
            rules?: (ingress.Rule.$Properties[]|null);

            /** GatewaySyncResponse rule_x_channel */
            rule_x_channel?: (ingress.RuleXChannel.$Properties[]|null);

            /** GatewaySyncResponse landmarks */
            landmarks?: (ingress.Landmark.$Properties[]|null);

            /** GatewaySyncResponse deleted */
            deleted?: (ingress.GatewaySyncResponse.Deleted.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a GatewaySyncResponse. */
        type $Shape = ingress.GatewaySyncResponse.$Properties;

        /**
         * Properties of a Deleted.
         * @deprecated Use ingress.GatewaySyncResponse.Deleted.$Properties instead.
         */
        interface IDeleted extends ingress.GatewaySyncResponse.Deleted.$Properties {
        }

        /** Represents a Deleted. */
        class Deleted {

            /**
             * Constructs a new Deleted.
             * @param [properties] Properties to set
             */
            constructor(properties?: ingress.GatewaySyncResponse.Deleted.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Deleted landmarks. */
            landmarks: string[];

            /** Deleted rules. */
            rules: string[];

            /** Deleted channels. */
            channels: string[];

            /**
             * Creates a new Deleted instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Deleted instance
             */
            static create(properties: ingress.GatewaySyncResponse.Deleted.$Shape): ingress.GatewaySyncResponse.Deleted & ingress.GatewaySyncResponse.Deleted.$Shape;
            static create(properties?: ingress.GatewaySyncResponse.Deleted.$Properties): ingress.GatewaySyncResponse.Deleted;

            /**
             * Encodes the specified Deleted message. Does not implicitly {@link ingress.GatewaySyncResponse.Deleted.verify|verify} messages.
             * @param message Deleted message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ingress.GatewaySyncResponse.Deleted.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Deleted message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ingress.GatewaySyncResponse.Deleted & ingress.GatewaySyncResponse.Deleted.$Shape} Deleted
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.GatewaySyncResponse.Deleted & ingress.GatewaySyncResponse.Deleted.$Shape;

            /**
             * Creates a Deleted message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Deleted
             */
            static fromObject(object: { [k: string]: any }): ingress.GatewaySyncResponse.Deleted;

            /**
             * Creates a plain object from a Deleted message. Also converts values to other types if specified.
             * @param message Deleted
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ingress.GatewaySyncResponse.Deleted, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Deleted to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace Deleted {

            /** Properties of a Deleted. */
            interface $Properties {

                /** Deleted landmarks */
                landmarks?: (string[]|null);

                /** Deleted rules */
                rules?: (string[]|null);

                /** Deleted channels */
                channels?: (string[]|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Deleted. */
            type $Shape = ingress.GatewaySyncResponse.Deleted.$Properties;
        }
    }

    /**
     * Properties of a MqttEventRequest.
     * @deprecated Use ingress.MqttEventRequest.$Properties instead.
     */
    interface IMqttEventRequest extends ingress.MqttEventRequest.$Properties {
    }

    /** Represents a MqttEventRequest. */
    class MqttEventRequest {

        /**
         * Constructs a new MqttEventRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.MqttEventRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** MqttEventRequest token. */
        token: string;

        /** MqttEventRequest event. */
        event: Uint8Array;

        /**
         * Creates a new MqttEventRequest instance using the specified properties.
         * @param [properties] Properties to set
         * @returns MqttEventRequest instance
         */
        static create(properties: ingress.MqttEventRequest.$Shape): ingress.MqttEventRequest & ingress.MqttEventRequest.$Shape;
        static create(properties?: ingress.MqttEventRequest.$Properties): ingress.MqttEventRequest;

        /**
         * Encodes the specified MqttEventRequest message. Does not implicitly {@link ingress.MqttEventRequest.verify|verify} messages.
         * @param message MqttEventRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.MqttEventRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a MqttEventRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.MqttEventRequest & ingress.MqttEventRequest.$Shape} MqttEventRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.MqttEventRequest & ingress.MqttEventRequest.$Shape;

        /**
         * Creates a MqttEventRequest message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns MqttEventRequest
         */
        static fromObject(object: { [k: string]: any }): ingress.MqttEventRequest;

        /**
         * Creates a plain object from a MqttEventRequest message. Also converts values to other types if specified.
         * @param message MqttEventRequest
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.MqttEventRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this MqttEventRequest to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace MqttEventRequest {

        /** Properties of a MqttEventRequest. */
        interface $Properties {

            /** MqttEventRequest token */
            token?: (string|null);

            /** MqttEventRequest event */
            event?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a MqttEventRequest. */
        type $Shape = ingress.MqttEventRequest.$Properties;
    }

    /**
     * Properties of a Notification.
     * @deprecated Use ingress.Notification.$Properties instead.
     */
    interface INotification extends ingress.Notification.$Properties {
    }

    /** Represents a Notification. */
    class Notification {

        /**
         * Constructs a new Notification.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Notification.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Notification id. */
        id: string;

        /** Notification timestamp. */
        timestamp: (number|Long);

        /** Notification deviceId. */
        deviceId: string;

        /** Notification subject. */
        subject: string;

        /** Notification message. */
        message: string;

        /** Notification type. */
        type: string;

        /** Notification title. */
        title: string;

        /** Notification body. */
        body: string;

        /** Notification actionTitle. */
        actionTitle: string;

        /** Notification submitUrl. */
        submitUrl: string;

        /** Notification hint. */
        hint: string;

        /** Notification landmarkId. */
        landmarkId: string;

        /** Notification address. */
        address: string;

        /** Notification addressTitle. */
        addressTitle: string;

        /** Notification actions. */
        actions: ingress.Notification.Actions.$Properties[];

        /** Notification options. */
        options: ingress.Notification.Options.$Properties[];

        /** Notification ruleId. */
        ruleId: string;

        /** Notification actionId. */
        actionId: string;

        /** Notification multipleChoice. */
        multipleChoice: boolean;

        /** Notification landmark. */
        landmark: Uint8Array;

        /**
         * Creates a new Notification instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Notification instance
         */
        static create(properties: ingress.Notification.$Shape): ingress.Notification & ingress.Notification.$Shape;
        static create(properties?: ingress.Notification.$Properties): ingress.Notification;

        /**
         * Encodes the specified Notification message. Does not implicitly {@link ingress.Notification.verify|verify} messages.
         * @param message Notification message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Notification.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Notification message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Notification & ingress.Notification.$Shape} Notification
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Notification & ingress.Notification.$Shape;

        /**
         * Creates a Notification message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Notification
         */
        static fromObject(object: { [k: string]: any }): ingress.Notification;

        /**
         * Creates a plain object from a Notification message. Also converts values to other types if specified.
         * @param message Notification
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Notification, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Notification to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Notification {

        /** Properties of a Notification. */
        interface $Properties {

            /** Notification id */
            id?: (string|null);

            /** Notification timestamp */
            timestamp?: (number|Long|null);

            /** Notification deviceId */
            deviceId?: (string|null);

            /** Notification subject */
            subject?: (string|null);

            /** Notification message */
            message?: (string|null);

            /** Notification type */
            type?: (string|null);

            /** Notification title */
            title?: (string|null);

            /** Notification body */
            body?: (string|null);

            /** Notification actionTitle */
            actionTitle?: (string|null);

            /** Notification submitUrl */
            submitUrl?: (string|null);

            /** Notification hint */
            hint?: (string|null);

            /** Notification landmarkId */
            landmarkId?: (string|null);

            /** Notification address */
            address?: (string|null);

            /** Notification addressTitle */
            addressTitle?: (string|null);

            /** Notification actions */
            actions?: (ingress.Notification.Actions.$Properties[]|null);

            /** Notification options */
            options?: (ingress.Notification.Options.$Properties[]|null);

            /** Notification ruleId */
            ruleId?: (string|null);

            /** Notification actionId */
            actionId?: (string|null);

            /** Notification multipleChoice */
            multipleChoice?: (boolean|null);

            /** Notification landmark */
            landmark?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Notification. */
        type $Shape = ingress.Notification.$Properties;

        /**
         * Properties of an Actions.
         * @deprecated Use ingress.Notification.Actions.$Properties instead.
         */
        interface IActions extends ingress.Notification.Actions.$Properties {
        }

        /** Represents an Actions. */
        class Actions {

            /**
             * Constructs a new Actions.
             * @param [properties] Properties to set
             */
            constructor(properties?: ingress.Notification.Actions.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Actions text. */
            text: string;

            /** Actions message. */
            message: string;

            /** Actions type. */
            type: string;

            /**
             * Creates a new Actions instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Actions instance
             */
            static create(properties: ingress.Notification.Actions.$Shape): ingress.Notification.Actions & ingress.Notification.Actions.$Shape;
            static create(properties?: ingress.Notification.Actions.$Properties): ingress.Notification.Actions;

            /**
             * Encodes the specified Actions message. Does not implicitly {@link ingress.Notification.Actions.verify|verify} messages.
             * @param message Actions message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ingress.Notification.Actions.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an Actions message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ingress.Notification.Actions & ingress.Notification.Actions.$Shape} Actions
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Notification.Actions & ingress.Notification.Actions.$Shape;

            /**
             * Creates an Actions message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Actions
             */
            static fromObject(object: { [k: string]: any }): ingress.Notification.Actions;

            /**
             * Creates a plain object from an Actions message. Also converts values to other types if specified.
             * @param message Actions
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ingress.Notification.Actions, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Actions to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace Actions {

            /** Properties of an Actions. */
            interface $Properties {

                /** Actions text */
                text?: (string|null);

                /** Actions message */
                message?: (string|null);

                /** Actions type */
                type?: (string|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an Actions. */
            type $Shape = ingress.Notification.Actions.$Properties;
        }

        /**
         * Properties of an Options.
         * @deprecated Use ingress.Notification.Options.$Properties instead.
         */
        interface IOptions extends ingress.Notification.Options.$Properties {
        }

        /** Represents an Options. */
        class Options {

            /**
             * Constructs a new Options.
             * @param [properties] Properties to set
             */
            constructor(properties?: ingress.Notification.Options.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Options text. */
            text: string;

            /** Options value. */
            value: (number|Long);

            /**
             * Creates a new Options instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Options instance
             */
            static create(properties: ingress.Notification.Options.$Shape): ingress.Notification.Options & ingress.Notification.Options.$Shape;
            static create(properties?: ingress.Notification.Options.$Properties): ingress.Notification.Options;

            /**
             * Encodes the specified Options message. Does not implicitly {@link ingress.Notification.Options.verify|verify} messages.
             * @param message Options message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ingress.Notification.Options.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an Options message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ingress.Notification.Options & ingress.Notification.Options.$Shape} Options
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Notification.Options & ingress.Notification.Options.$Shape;

            /**
             * Creates an Options message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Options
             */
            static fromObject(object: { [k: string]: any }): ingress.Notification.Options;

            /**
             * Creates a plain object from an Options message. Also converts values to other types if specified.
             * @param message Options
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ingress.Notification.Options, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Options to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };
        }

        namespace Options {

            /** Properties of an Options. */
            interface $Properties {

                /** Options text */
                text?: (string|null);

                /** Options value */
                value?: (number|Long|null);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an Options. */
            type $Shape = ingress.Notification.Options.$Properties;
        }
    }

    /**
     * Properties of a NotificationResponse.
     * @deprecated Use ingress.NotificationResponse.$Properties instead.
     */
    interface INotificationResponse extends ingress.NotificationResponse.$Properties {
    }

    /** Represents a NotificationResponse. */
    class NotificationResponse {

        /**
         * Constructs a new NotificationResponse.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.NotificationResponse.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** NotificationResponse notifications. */
        notifications: ingress.Notification.$Properties[];

        /** NotificationResponse hasMoreData. */
        hasMoreData: boolean;

        /**
         * Creates a new NotificationResponse instance using the specified properties.
         * @param [properties] Properties to set
         * @returns NotificationResponse instance
         */
        static create(properties: ingress.NotificationResponse.$Shape): ingress.NotificationResponse & ingress.NotificationResponse.$Shape;
        static create(properties?: ingress.NotificationResponse.$Properties): ingress.NotificationResponse;

        /**
         * Encodes the specified NotificationResponse message. Does not implicitly {@link ingress.NotificationResponse.verify|verify} messages.
         * @param message NotificationResponse message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.NotificationResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a NotificationResponse message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.NotificationResponse & ingress.NotificationResponse.$Shape} NotificationResponse
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.NotificationResponse & ingress.NotificationResponse.$Shape;

        /**
         * Creates a NotificationResponse message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns NotificationResponse
         */
        static fromObject(object: { [k: string]: any }): ingress.NotificationResponse;

        /**
         * Creates a plain object from a NotificationResponse message. Also converts values to other types if specified.
         * @param message NotificationResponse
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.NotificationResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this NotificationResponse to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace NotificationResponse {

        /** Properties of a NotificationResponse. */
        interface $Properties {

            /** NotificationResponse notifications */
            notifications?: (ingress.Notification.$Properties[]|null);

            /** NotificationResponse hasMoreData */
            hasMoreData?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a NotificationResponse. */
        type $Shape = ingress.NotificationResponse.$Properties;
    }

    /**
     * Properties of a Response.
     * @deprecated Use ingress.Response.$Properties instead.
     */
    interface IResponse extends ingress.Response.$Properties {
    }

    /** Represents a Response. */
    class Response {

        /**
         * Constructs a new Response.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.Response.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Response id. */
        id: string;

        /** Response ruleId. */
        ruleId: string;

        /** Response deviceId. */
        deviceId: string;

        /** Response actionId. */
        actionId: string;

        /** Response type. */
        type: string;

        /** Response responseData. */
        responseData: Uint8Array;

        /**
         * Creates a new Response instance using the specified properties.
         * @param [properties] Properties to set
         * @returns Response instance
         */
        static create(properties: ingress.Response.$Shape): ingress.Response & ingress.Response.$Shape;
        static create(properties?: ingress.Response.$Properties): ingress.Response;

        /**
         * Encodes the specified Response message. Does not implicitly {@link ingress.Response.verify|verify} messages.
         * @param message Response message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.Response.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Response message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.Response & ingress.Response.$Shape} Response
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.Response & ingress.Response.$Shape;

        /**
         * Creates a Response message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns Response
         */
        static fromObject(object: { [k: string]: any }): ingress.Response;

        /**
         * Creates a plain object from a Response message. Also converts values to other types if specified.
         * @param message Response
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.Response, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this Response to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace Response {

        /** Properties of a Response. */
        interface $Properties {

            /** Response id */
            id?: (string|null);

            /** Response ruleId */
            ruleId?: (string|null);

            /** Response deviceId */
            deviceId?: (string|null);

            /** Response actionId */
            actionId?: (string|null);

            /** Response type */
            type?: (string|null);

            /** Response responseData */
            responseData?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Response. */
        type $Shape = ingress.Response.$Properties;
    }

    /**
     * Properties of an UploadFiles.
     * @deprecated Use ingress.UploadFiles.$Properties instead.
     */
    interface IUploadFiles extends ingress.UploadFiles.$Properties {
    }

    /** Represents an UploadFiles. */
    class UploadFiles {

        /**
         * Constructs a new UploadFiles.
         * @param [properties] Properties to set
         */
        constructor(properties?: ingress.UploadFiles.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** UploadFiles key. */
        key: string;

        /**
         * Creates a new UploadFiles instance using the specified properties.
         * @param [properties] Properties to set
         * @returns UploadFiles instance
         */
        static create(properties: ingress.UploadFiles.$Shape): ingress.UploadFiles & ingress.UploadFiles.$Shape;
        static create(properties?: ingress.UploadFiles.$Properties): ingress.UploadFiles;

        /**
         * Encodes the specified UploadFiles message. Does not implicitly {@link ingress.UploadFiles.verify|verify} messages.
         * @param message UploadFiles message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: ingress.UploadFiles.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an UploadFiles message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {ingress.UploadFiles & ingress.UploadFiles.$Shape} UploadFiles
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ingress.UploadFiles & ingress.UploadFiles.$Shape;

        /**
         * Creates an UploadFiles message from a plain object. Also converts values to their respective internal types.
         * @param object Plain object
         * @returns UploadFiles
         */
        static fromObject(object: { [k: string]: any }): ingress.UploadFiles;

        /**
         * Creates a plain object from an UploadFiles message. Also converts values to other types if specified.
         * @param message UploadFiles
         * @param [options] Conversion options
         * @returns Plain object
         */
        static toObject(message: ingress.UploadFiles, options?: $protobuf.IConversionOptions): { [k: string]: any };

        /**
         * Converts this UploadFiles to JSON.
         * @returns JSON object
         */
        toJSON(): { [k: string]: any };
    }

    namespace UploadFiles {

        /** Properties of an UploadFiles. */
        interface $Properties {

            /** UploadFiles key */
            key?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an UploadFiles. */
        type $Shape = ingress.UploadFiles.$Properties;
    }
}
