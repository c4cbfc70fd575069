/** Version of the SDK packages, shown in reports. */
export const SDK_VERSION: string = "0.1.0";
