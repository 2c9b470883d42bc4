import CCurl
import PoolSizeModel

extension HTTPLoadDriver {
    /// Hands handle `index` to the multi handle for its next transfer, its last answer cleared:
    /// how both loops start a request.
    func add(_ index: Int) throws(PoolSizeError) {
        let handle = handles[index]
        guard let raw = handle.multiHandle else { throw .measurementFailed("libcurl handle closed during a run") }
        handle.resetAnswer()
        let code = curl_multi_add_handle(multi, raw)
        guard code == CURLM_OK else { throw HTTPLoadDriver.failure("curl_multi_add_handle", code) }
    }

    /// Takes handle `index`'s transfer out of the multi handle (libcurl closes its connection:
    /// it is mid-answer).
    func remove(_ index: Int) {
        if let raw = handles[index].multiHandle { curl_multi_remove_handle(multi, raw) }
    }
}
