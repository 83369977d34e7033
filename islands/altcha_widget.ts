/** Browser entry: registers the <altcha-widget> custom element (self-hosted proof of work). */
import "altcha";
