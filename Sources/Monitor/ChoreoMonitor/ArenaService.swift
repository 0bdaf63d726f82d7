import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import ChoreoService

/// The arena's request handling shared by the server and the CLI.
public enum ArenaService {
    /// `POST /v1/arena/preview` and `choreo arena-scene`: standings in, the round's scene out.
    public static func preview(_ body: [UInt8]) throws(ServiceError) -> JSONValue {
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            throw ServiceError.malformedJSON(error)
        }
        let standings: [ArenaStanding]
        let settings: ArenaRoundSettings
        do {
            (standings, settings) = try StandingsDecoder.decode(document)
        } catch {
            throw ServiceError.invalidStandings(error)
        }
        return ArenaRound.scene(standings, settings: settings)
    }
}
